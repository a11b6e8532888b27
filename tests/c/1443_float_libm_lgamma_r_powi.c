// OPT: O0 O2
// float libm corners in one float kernel and a double one: erfcf, lgammaf, tgammaf, fmaf,
// cbrtf, expm1f, log1pf, `__builtin_powif` with positive and negative run-time exponents,
// and glibc's reentrant `lgamma_r`/`lgammaf_r` (the sign through an `int *`): no rule
// before enz36 ("no derivative for `lgamma_r`"), now the digamma function as for lgamma.
// Oracles: five-point differences of the float kernel (tolerance 2e-3), central
// differences of the double one, forward mode = reverse mode per direction.
#include "fz_test.h"
#include "fz_modes.h"
extern double lgamma_r(double, int *);
extern float lgammaf_r(float, int *);
float kf(const float *x, int n) {
  float s = fmaf(x[0], x[1], erfcf(x[2]));
  s += lgammaf(x[3] + 2.0f) * cbrtf(x[1] - 3.0f);
  int sg;
  s += lgammaf_r(x[0] + 0.5f, &sg) * (float)sg;
  s += tgammaf(x[2] + 1.2f) + expm1f(x[0] * x[3]) - log1pf(x[1] * x[1]);
  s += __builtin_powif(x[3], n) + __builtin_powif(x[1] + 2.0f, -n);
  return s;
}
double kd(const double *x, int n) {
  int sg;
  double s = lgamma_r(x[0] - 2.5, &sg) * sg + __builtin_powi(x[1], n - 5) + fma(x[2], x[3], x[0]);
  return s;
}
extern float __enzyme_autodiff_kf(void *, ...);
static float XF[4]; static double XD[4]; static int N = 3;
static float evf(void *c) { (void)c; return kf(XF, N); }
static double evd(void *c) { (void)c; return kd(XD, N); }
int main(void) {
  float x0[4] = {0.3f, -0.45f, 0.6f, 0.8f};
  memcpy(XF, x0, sizeof x0);
  for (int i = 0; i < 4; i++) XD[i] = x0[i] + 0.1 * i;
  float gf[4] = {0};
  __enzyme_autodiff_kf((void *)kf, enzyme_dup, XF, gf, enzyme_const, N);
  for (int i = 0; i < 4; i++) fz_check("float d/dx", gf[i], fz_fd_ptrf(evf, 0, &XF[i]), 2e-3);
  double gd[4] = {0};
  __enzyme_autodiff((void *)kd, enzyme_dup, XD, gd, enzyme_const, N);
  for (int i = 0; i < 4; i++) fz_check("double d/dx", gd[i], fz_fd_ptr(evd, 0, &XD[i]), 1e-6);
  for (int j = 0; j < 4; j++) {
    double t[4] = {0}; t[j] = 1;
    fz_check("fwd = rev", __enzyme_fwddiff((void *)kd, enzyme_dup, XD, t, enzyme_const, N), gd[j], 1e-12);
    float tf[4] = {0}; tf[j] = 1;
    fz_check("fwd = rev (float)", __enzyme_fwddiff_f32p((void *)kf, enzyme_dup, XF, tf, enzyme_const, N), gf[j], 1e-5);
  }
  return fz_finish();
}
