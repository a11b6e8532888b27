// OPT: O0 O1 O2 O3
// probe43: one function over many libm calls (fma, hypot, cbrt, erf, erfc, lgamma, tgamma,
// atan2, log1p, expm1, pow, exp2, log2, log10, fmod, remainder, ldexp, asinh, acosh,
// atanh, tanh, fdim, long double expl/sqrtl), a float computation inside a double
// function (analytic oracle: central differences in double see float rounding), atan2
// just above and below its branch cut (x < 0) and exactly at y = +0 and y = -0 (dy =
// 1/x). Reverse against central differences or analytic, forward against <gradient, v>.
// Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
double mix(const double *x, int n) {
  (void)n;
  long double L = (long double)x[1];
  long double r = expl(L) * sqrtl(L * L + 1);
  double a = fma(x[2], x[3], x[4]) + hypot(x[2], x[4]) + cbrt(x[3]) + erf(x[4]) + erfc(x[2]) + lgamma(x[5]) + tgamma(x[6]);
  double b = atan2(x[7], x[8]) + atan2(-x[7], x[8]) * 0.5 + log1p(x[3] * x[3]) + expm1(x[4]) + pow(x[5], x[6]) + exp2(x[3]) + log2(x[5]) + log10(x[6]);
  double c = fmod(x[5] * 3, 1.7) + remainder(x[6] * 5, 1.3) + ldexp(x[2], 3) + asinh(x[3]) + acosh(x[5] + 1) + atanh(x[4] * 0.5) + tanh(x[2]);
  return (double)r + a + b + c + fdim(x[2], x[4]) + 0.0 * x[0];
}
/* float inside a double function: finite differences in double would see float
   rounding, so the oracle is analytic */
double fpart(const double *x, int n) { (void)n; float f = (float)x[0]; return (double)(sinf(f) * f) + fmaxf(f, 0.1f); }
/* atan2 at the branch cut: y = +-tiny, x < 0 */
double cut(const double *x, int n) { (void)n; return atan2(x[0], x[1]); }
int main(void) {
  double x[9] = {0.7, 0.4, -0.3, 1.7, 0.45, 2.3, 1.6, 0.8, -1.2};
  FZ_CHECK_GRAD("libm mix", mix, x, 9, 2e-5);
  double dfp[1] = {0};
  __enzyme_autodiff((void *)fpart, enzyme_dup, x, dfp, enzyme_const, 1);
  float f0 = (float)x[0];
  fz_check("float part", dfp[0], cosf(f0) * f0 + sinf(f0) + 1.0f, 1e-6);
  double y[2] = {1e-3, -2.0}; FZ_CHECK_GRAD("atan2 above cut", cut, y, 2, 1e-7);
  y[0] = -1e-3; FZ_CHECK_GRAD("atan2 below cut", cut, y, 2, 1e-7);
  /* exactly at y=+0 and -0: analytic derivative d/dy = x/(x^2+y^2), d/dx = -y/(...) */
  double dz[2] = {0}; y[0] = 0.0; __enzyme_autodiff((void *)cut, enzyme_dup, y, dz, enzyme_const, 2);
  fz_check("atan2 +0 dy", dz[0], 1.0 / y[1], 1e-15); fz_check("atan2 +0 dx", dz[1], 0.0, 0);
  double dm[2] = {0}; y[0] = -0.0; __enzyme_autodiff((void *)cut, enzyme_dup, y, dm, enzyme_const, 2);
  fz_check("atan2 -0 dy", dm[0], 1.0 / y[1], 1e-15);
  return fz_finish();
}
