// OPT: O0 O1 O2 O3
// libm beyond the usual sin/exp/log, in one statistical-physics style objective:
// `tgamma`, `lgamma`, `erf`, `erfc`, `expm1`, `log1p`, `atan2`, `hypot`, `cbrt`,
// `asinh`, `acosh`, `atanh`, `exp2`, `log2`, `log10`, `fdim`, `fma`, `pow` with both
// operands active, `ldexp`, `scalbn`, `copysign`, `remainder`-free smooth parts only.
// Each term has its own active parameter so the gradient is a list of analytic
// derivatives. Oracle: analytic values and central finite differences.
#include "fz_test.h"

#define NP 16

double specials(const double *p) {
  return tgamma(p[0]) + lgamma(p[1]) + erf(p[2]) + erfc(p[3]) + expm1(p[4]) + log1p(p[5]) +
         atan2(p[6], p[7]) + hypot(p[7], p[8]) + cbrt(p[9]) + asinh(p[10]) + acosh(p[11]) +
         atanh(p[12]) + exp2(p[13]) + log2(p[14]) + log10(p[15]) + fdim(p[0], p[5]) +
         fma(p[1], p[2], p[3]) + pow(p[4], p[9]) + ldexp(p[6], 3) + scalbn(p[8], -2) +
         copysign(p[10], -1.0);
}

static double P[NP] = {2.3, 3.7, 0.4, -0.3, 0.8, 0.6, 0.9, 1.4, -0.7,
                       2.1, -0.5, 1.8, 0.35, 0.75, 2.9, 4.2};
static double eval(void *ctx) { (void)ctx; return specials(P); }

/* digamma by recurrence and the asymptotic series (independent of the tool) */
static double digamma(double x) {
  double r = 0;
  while (x < 8) r -= 1 / x, x += 1;
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f / 240)));
}

int main(void) {
  double dP[NP] = {0}, fd[NP], want[NP];
  __enzyme_autodiff((void *)specials, enzyme_dup, P, dP);
  const double *p = P;
  double sp = 2.0 / sqrt(M_PI);
  want[0] = tgamma(p[0]) * digamma(p[0]) + 1.0; /* fdim(p0, p5) = p0 - p5 > 0 */
  want[1] = digamma(p[1]) + p[2];
  want[2] = sp * exp(-p[2] * p[2]) + p[1];
  want[3] = -sp * exp(-p[3] * p[3]) + 1.0;
  want[4] = exp(p[4]) + p[9] * pow(p[4], p[9] - 1);
  want[5] = 1 / (1 + p[5]) - 1.0;
  double r67 = p[6] * p[6] + p[7] * p[7], h78 = hypot(p[7], p[8]);
  want[6] = p[7] / r67 + 8.0;
  want[7] = -p[6] / r67 + p[7] / h78;
  want[8] = p[8] / h78 + 0.25;
  want[9] = 1.0 / (3.0 * cbrt(p[9]) * cbrt(p[9])) + pow(p[4], p[9]) * log(p[4]);
  want[10] = 1 / sqrt(p[10] * p[10] + 1) + (p[10] < 0 ? 1.0 : -1.0); /* copysign(x, -1) = -|x| */
  want[11] = 1 / sqrt(p[11] * p[11] - 1);
  want[12] = 1 / (1 - p[12] * p[12]);
  want[13] = exp2(p[13]) * log(2.0);
  want[14] = 1 / (p[14] * log(2.0));
  want[15] = 1 / (p[15] * log(10.0));
  fz_check_arr("grad (analytic)", dP, want, NP, 1e-10);
  fz_fd_grad(eval, NULL, P, NP, fd);
  fz_check_arr("grad (fd)", dP, fd, NP, 1e-6);
  return fz_finish();
}
