// OPT: O0 O1 O2 O3
// Reduced from difftest C++ seed 9307 at -O2 (cannot-deduce-type at
// `memcpy(y, hm, 10 * sizeof(R))`): two floats copied by `memcpy(y + 8, sa + 1, 8)`
// become one `load i64` + `store i64` in InstCombine, and the first float, read again,
// comes back out as `trunc i64 to i32` + `bitcast i32 to float`. Type analysis called
// every trunc integer arithmetic, so the loaded pair (and `y`, the buffer it is stored
// into) was integer and float at once, and the copy `memcpy(y, hm, 40)` and the
// valarray's copy of `y` were refused. A trunc that is read back as a float is the
// operand's low bytes now. Gradient and tangent of the float program against central
// finite differences of the same template instantiated in double.
#include "fz_cxx.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <valarray>

extern "C" float __enzyme_autodiff_f(void *, ...);
extern "C" float __enzyme_fwddiff_f(void *, ...);

template <typename R> R f(R *x, R *y, int n, R a) {
  R sa[10];
  for (int q = 0; q < 10; q++) sa[q] = x[(q + 1) % 10];
  R *hm = (R *)malloc(10 * sizeof(R));
  for (int q = 0; q < 10; q++) hm[q] = std::cos(y[q] + a);
  R t = 0;
  if (n % 2 == 0) {
    for (int i = 0; i < n; i++) hm[(i + 7) % n] += (R)0.45 * sa[i] * hm[i];
    memcpy(y, hm, 10 * sizeof(R));
  }
  if (x[0] * a > (R)5) {
    t += std::tanh(y[6]);
  } else {
    memcpy(y + 8, sa + 1, 2 * sizeof(R));
  }
  t += (R)0.6 * sa[1] * y[9];
  {
    std::valarray<R> va(y, n);
    va *= (R)0.87;
    std::valarray<R> vb = va * (R)0.76 + std::sin(va) * va;
    t += (R)0.28 * (vb.max() + vb.sum());
  }
  R ret = t;
  for (int q = 0; q < n; q++) ret += std::sin(y[q]) + hm[q] * (R)0.74;
  free(hm);
  return ret;
}
template float f<float>(float *, float *, int, float);

static const double X0[10] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.15, 0.35, 0.05};
static const double Y0[10] = {0.1, 0.4, -0.3, 0.2, 0.15, -0.25, 0.45, 0.05, -0.1, 0.3};
static const int N = 10;

// f<double> at (x, y, a) = (v[0..10), v[10..20), v[20]) (y is overwritten: copied first).
static double fd_eval(const double *v) {
  double x[10], y[10];
  for (int i = 0; i < 10; i++) x[i] = v[i], y[i] = v[10 + i];
  return f<double>(x, y, N, v[20]);
}

int main() {
  double v[21];
  for (int i = 0; i < 10; i++) v[i] = X0[i], v[10 + i] = Y0[i];
  v[20] = 0.4;
  double g[21];
  for (int k = 0; k < 21; k++) g[k] = fz_fd([&] { return fd_eval(v); }, v[k]);

  float x[10], y[10], dx[10] = {0}, dy[10] = {0};
  for (int i = 0; i < 10; i++) x[i] = (float)X0[i], y[i] = (float)Y0[i];
  float da = __enzyme_autodiff_f((void *)f<float>, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                 enzyme_const, N, (float)v[20]);
  for (int k = 0; k < 10; k++) {
    fz_check("dx", dx[k], g[k], 1e-4);
    fz_check("dy", dy[k], g[10 + k], 1e-4);
  }
  fz_check("da", da, g[20], 1e-4);

  // Forward mode along a direction of (x, y, a) against the directional difference.
  double dir[21];
  float tx[10], ty[10];
  for (int i = 0; i < 10; i++) {
    tx[i] = 0.1f * (i % 3) - 0.1f, ty[i] = 0.05f * (i % 4);
    dir[i] = tx[i], dir[10 + i] = ty[i];
  }
  dir[20] = 0.3;
  for (int i = 0; i < 10; i++) x[i] = (float)X0[i], y[i] = (float)Y0[i];
  float t = __enzyme_fwddiff_f((void *)f<float>, enzyme_dup, x, tx, enzyme_dup, y, ty,
                               enzyme_const, N, (float)v[20], (float)dir[20]);
  fz_check("tangent", t, fz_fd_dir_of([&] { return fd_eval(v); }, v, dir, 21), 1e-4);
  return fz_finish();
}
