// OPT: O0 O2
// ARGS: -lopenblas
// Regression (difftest, the `blas` feature in forward mode, after the merges): a
// registered forward derivative of a float function returns struct { float primal;
// float tangent; }, which the x86-64 ABI returns as one <2 x float>. That shape was
// refused ("returns <2 x float>; expected struct { float primal; float tangent; }"), so
// cblas_sdot and cblas_snrm2 (whose built-in forward rules return that struct) could
// not be differentiated in forward mode, nor could a user's float rule. Both now.
// Oracles: analytic tangents (sdot: <dx, y> + <x, dy>; snrm2: <x, dx> / |x|; the user
// rule: 3 x^2 dx), and the dot-product identity with reverse mode.
#include "fz_test.h"
#include <cblas.h>

extern float __enzyme_fwddiff_f(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

#define N 7

float blas_f(const float *x, const float *y, int n) {
  return cblas_sdot(n, x, 1, y, 1) + 2.0f * cblas_snrm2(n, x, 1);
}

float cubef(float x) { return x * x * x; }
typedef struct {
  float primal, tangent;
} fpair;
static int rule_calls;
fpair cubef_fwd(float x, float dx) {
  rule_calls++;
  fpair r = {x * x * x, 3 * x * x * dx};
  return r;
}
void *__enzyme_register_derivative_cubef[] = {(void *)cubef, (void *)cubef_fwd};

float user_f(float a, float b) { return cubef(a) * b + a; }

int main(void) {
  fz_seed(513);
  float x[N], y[N], dx[N], dy[N], gx[N], gy[N];
  fz_fillf(x, N, -1, 1);
  fz_fillf(y, N, -1, 1);
  fz_fillf(dx, N, -1, 1);
  fz_fillf(dy, N, -1, 1);
  float t = __enzyme_fwddiff_f((void *)blas_f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                               enzyme_const, N);
  double nrm = 0, want = 0;
  for (int i = 0; i < N; i++) nrm += (double)x[i] * x[i];
  nrm = sqrt(nrm);
  for (int i = 0; i < N; i++) want += dx[i] * y[i] + x[i] * dy[i] + 2 * x[i] * dx[i] / nrm;
  fz_check("sdot + snrm2 tangent", t, want, 1e-5);
  // The same directional derivative from the gradient.
  for (int i = 0; i < N; i++) gx[i] = gy[i] = 0;
  __enzyme_autodiff_v((void *)blas_f, enzyme_dup, x, gx, enzyme_dup, y, gy, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += (double)gx[i] * dx[i] + (double)gy[i] * dy[i];
  fz_check("tangent = <gradient, direction>", t, dot, 1e-5);

  float a = 0.7f, b = -1.3f;
  float ut = __enzyme_fwddiff_f((void *)user_f, a, 0.5f, b, 2.0f);
  fz_check("user float rule tangent", ut, (3 * a * a * b + 1) * 0.5f + a * a * a * 2.0f, 1e-5);
  fz_check("user float rule was called", rule_calls >= 1, 1, 0);
  return fz_finish();
}
