// OMP_THREADS: 1 2
// CFLAGS: -g
// Regression (difftest C seed 1009 and C++ seed 2026, after the merges): a parallel
// region reading floats through an `enzyme_const` pointer. clang hands the region the
// address of the stack slot holding `y`; that slot had a shadow (its address escapes
// into the region) whose content is no shadow pointer, and the derivatives added the
// adjoint of `y[i]` in `y[i] * x[i]` through a null pointer, in the region and in the
// caller after it (where `y` is read back from the slot at -O0): a segfault at every opt
// level, in reverse and in forward mode. A slot the regions only read gets a shadow
// only when a value stored into it has one (ferrozyme-analysis captures.rs), so it is
// a constant argument of the region here. Built with -g: the microtask then reads
// through `.omp_outlined_debug__`. Also a `float` version with a scalar active
// parameter and a `float _Complex` one (the difftest program's signature), a second
// region reading the same constant pointer, and the pointer used after the regions.
// Oracles: analytic gradients, central finite differences, and the dot-product
// identity between forward and reverse mode.
#include "fz_test.h"
#include <complex.h>

extern double __enzyme_fwddiff(void *, ...);
typedef struct { float d[3]; } g3f;
extern g3f __enzyme_autodiff_g3f(void *, ...);

double dotw(double *x, const double *y, int n, double a) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += y[i] * x[i] * x[i];
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) t += sin(y[(i + 1) % n] * x[i]);
  double u = 0;
  for (int i = 0; i < n; i++) u += y[i] * x[i];
  return s * a + t + 0.5 * u;
}

float cplx(float *x, const float *y, int n, float a, float _Complex z) {
  float s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += y[1] + x[4] * y[i];
  return s * a + crealf(z) * cimagf(z) * x[0];
}

#define N 37
static double x[N], y[N], a = 0.7;

static double eval_dotw(void *ctx) {
  (void)ctx;
  return dotw(x, y, N, a);
}

int main(void) {
  fz_seed(9);
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  double dx[N], want[N], dir[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)dotw, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, N,
                    enzyme_const, a);
  for (int i = 0; i < N; i++)
    want[i] = 2 * a * y[i] * x[i] + y[(i + 1) % N] * cos(y[(i + 1) % N] * x[i]) + 0.5 * y[i];
  fz_check_arr("d dotw analytic", dx, want, N, 1e-12);
  for (int i = 0; i < N; i += 6) {
    char what[48];
    snprintf(what, sizeof what, "d dotw fd x[%d]", i);
    fz_check(what, dx[i], fz_fd_ptr(eval_dotw, NULL, &x[i]), 1e-6);
  }
  // Forward mode: the tangent along dir is <dx, dir>.
  fz_fill(dir, N, -1, 1);
  double tan = __enzyme_fwddiff((void *)dotw, enzyme_dup, x, dir, enzyme_const, y,
                                enzyme_const, N, enzyme_const, a);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * dir[i];
  fz_check("dotw fwd . dir = <grad, dir>", tan, dot, 1e-10);

  // float, an active scalar and an active float _Complex: three results in a struct.
  float xf[8], yf[8], dxf[8];
  for (int i = 0; i < 8; i++) {
    xf[i] = 0.1f * (float)i - 0.3f;
    yf[i] = 0.2f * (float)i + 0.1f;
    dxf[i] = 0;
  }
  float af = 1.5f, zr = 0.5f, zi = 2.0f;
  g3f g = __enzyme_autodiff_g3f((void *)cplx, enzyme_dup, xf, dxf, enzyme_const, yf,
                                enzyme_const, 8, af, zr + zi * I);
  float sy = 0, s = 0;
  for (int i = 0; i < 8; i++) {
    sy += yf[i];
    s += yf[1] + xf[4] * yf[i];
  }
  fz_check("d cplx / d x[0]", dxf[0], zr * zi, 1e-5);
  fz_check("d cplx / d x[4]", dxf[4], af * sy, 1e-5);
  fz_check("d cplx / d x[3]", dxf[3], 0, 1e-5);
  fz_check("d cplx / d a", g.d[0], s, 1e-5);
  fz_check("d cplx / d re z", g.d[1], zi * xf[0], 1e-5);
  fz_check("d cplx / d im z", g.d[2], zr * xf[0], 1e-5);
  return fz_finish();
}
