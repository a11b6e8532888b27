// OPT: O0 O2 O3
// Forward mode through a pointer chosen at run time between constant memory
// (enzyme_const) and duplicated memory: `c ? y[k] : x[k]` becomes a load through
// a select of the two addresses at -O2. The tangent must be zero when the
// constant side is chosen (found by random differential testing: the shadow of
// the constant side was null and LLVM folded the null load away). The store
// back into x[4] goes through the same kind of choice.
#include "fz_test.h"
#include "fz_modes.h"

__attribute__((noinline)) float f(float *x, const float *y, int n, float a) {
  float t = 0;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      float v = (x[k] * a > 0.1f) ? y[k + 2] : x[k];
      float *dst = (y[k] > 0.5f) ? &x[4] : &x[5];
      *dst = tanhf(fabsf(cosf(v))) + 0.5f * *dst;
      t += v * v;
    }
  }
  return t + x[4] * x[5];
}

static float xs0[6], ys[6];
static double eval(void *ctx) {
  float *x = (float *)ctx;
  float w[6];
  memcpy(w, x, sizeof w);
  return f(w, ys, 2, 0.7f);
}

int main(void) {
  fz_seed(213);
  for (int i = 0; i < 6; i++) {
    xs0[i] = (float)fz_uniform(-1.0, 1.0);
    ys[i] = (float)fz_uniform(0.0, 1.0);
  }
  float v[6];
  for (int i = 0; i < 6; i++) v[i] = (float)fz_uniform(-1.0, 1.0);
  float x[6], dx[6];
  memcpy(x, xs0, sizeof x);
  memcpy(dx, v, sizeof dx);
  extern float __enzyme_fwddiff_mixed(void *, int, float *, float *, int, const float *, int,
                                      int, int, float);
  float tan = __enzyme_fwddiff_mixed((void *)f, enzyme_dup, x, dx, enzyme_const, ys,
                                     enzyme_const, 2, enzyme_const, 0.7f);
  /* Directional finite difference of the primal (inputs restored each time). */
  double h = 1e-3, fp, fm;
  float xp[6], xm[6];
  for (int i = 0; i < 6; i++) {
    xp[i] = xs0[i] + (float)(h * v[i]);
    xm[i] = xs0[i] - (float)(h * v[i]);
  }
  fp = eval(xp);
  fm = eval(xm);
  fz_check("directional derivative", tan, (fp - fm) / (2 * h), 1e-3);
  return fz_finish();
}
