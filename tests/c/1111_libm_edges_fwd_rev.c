// OPT: O0 O1 O2 O3
// libm breadth in forward and reverse mode, with the edge points Enzyme's own tests pin:
// pow at a zero base (d/dy of 0^y is 0, d/dx of x^1 at 0 is 1, not NaN), powf through
// a typed float hook, fabs away from zero, fmax/fmin picking a side, hypot, atan2,
// cbrt, erf, erfc, expm1, log1p, lgamma, tgamma, fmod, copysign, ldexp, sinh, cosh,
// tanh, asinh, acosh, atanh, log2, log10, exp2. Oracle: analytic derivatives, and the
// forward/reverse agreement on a function using them all.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddiff_ff(void *, float, float, float, float);
typedef struct { double a, b; } two;
extern two __enzyme_autodiff_2(void *, ...);

double pw(double x, double y) { return pow(x, y); }
float pwf(float x, float y) { return powf(x, y); }

double all(double x, double y) {
  double s = 0;
  s += fabs(x - 3.0) + fmax(x, y) + fmin(x * 0.5, y) + hypot(x, y) + atan2(y, x);
  s += cbrt(x * y) + erf(0.3 * x) + erfc(0.2 * y) + expm1(0.1 * x) + log1p(y * y);
  s += lgamma(x + 1.5) + tgamma(0.5 * y + 1.2) + fmod(3.7 * x, 1.3) + copysign(x * y, -1.0);
  s += ldexp(x, 3) + sinh(0.4 * y) + cosh(0.3 * x) + tanh(x * y) + asinh(y) + acosh(x + 1.5);
  s += atanh(0.3 * y) + log2(x + 2) + log10(y + 3) + exp2(0.5 * x);
  return s;
}

/* digamma by recurrence + asymptotic series, for d lgamma / d x and d tgamma */
static double digamma(double x) {
  double r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252)));
}

int main(void) {
  fz_check("d/dx 0^1 (forward)", __enzyme_fwddiff((void *)pw, 0.0, 1.0, 1.0, 0.0), 1.0, 1e-15);
  fz_check("d/dy 0^1 (forward)", __enzyme_fwddiff((void *)pw, 0.0, 0.0, 1.0, 1.0), 0.0, 1e-15);
  fz_check("d/dx 0^2.5 (forward)", __enzyme_fwddiff((void *)pw, 0.0, 1.0, 2.5, 0.0), 0.0, 1e-15);
  fz_check("d/dy 0^2.5 (forward)", __enzyme_fwddiff((void *)pw, 0.0, 0.0, 2.5, 1.0), 0.0, 1e-15);
  two r = __enzyme_autodiff_2((void *)pw, 0.0, 1.0);
  fz_check("d/dx 0^1 (reverse)", r.a, 1.0, 1e-15);
  fz_check("d/dy 0^1 (reverse)", r.b, 0.0, 1e-15);
  r = __enzyme_autodiff_2((void *)pw, 2.0, 3.0);
  fz_check("d/dx 2^3", r.a, 12.0, 1e-14);
  fz_check("d/dy 2^3", r.b, 8.0 * log(2.0), 1e-14);
  fz_check("powf d/dx 0^1", __enzyme_fwddiff_ff((void *)pwf, 0.0f, 1.0f, 1.0f, 0.0f), 1.0, 1e-7);
  fz_check("powf d/dy 0^1", __enzyme_fwddiff_ff((void *)pwf, 0.0f, 0.0f, 1.0f, 1.0f), 0.0, 1e-7);

  double x = 1.3, y = 0.8;
  two g = __enzyme_autodiff_2((void *)all, x, y);
  double gx = -1.0 + 1.0 /* fmax picks x */ + 0.5 /* fmin picks 0.5 x */ + x / hypot(x, y) -
              y / (x * x + y * y) + cbrt(x * y) / (3 * x) + 0.3 * 2 / sqrt(M_PI) * exp(-0.09 * x * x) +
              0.1 * exp(0.1 * x) + digamma(x + 1.5) + 3.7 /* fmod slope */ - y /* copysign(-) */ +
              8.0 + 0.3 * sinh(0.3 * x) + y * (1 - tanh(x * y) * tanh(x * y)) +
              1 / sqrt((x + 1.5) * (x + 1.5) - 1) + 1 / ((x + 2) * log(2.0)) +
              0.5 * log(2.0) * exp2(0.5 * x);
  double gy = y / hypot(x, y) + x / (x * x + y * y) +
              cbrt(x * y) / (3 * y) - 0.2 * 2 / sqrt(M_PI) * exp(-0.04 * y * y) +
              2 * y / (1 + y * y) + 0.5 * tgamma(0.5 * y + 1.2) * digamma(0.5 * y + 1.2) - x +
              0.4 * cosh(0.4 * y) + x * (1 - tanh(x * y) * tanh(x * y)) + 1 / sqrt(y * y + 1) +
              0.3 / (1 - 0.09 * y * y) + 1 / ((y + 3) * log(10.0));
  fz_check("fmax picks x", fmax(x, y) == x, 1, 0);
  fz_check("fmin picks 0.5 x", fmin(0.5 * x, y) == 0.5 * x, 1, 0);
  fz_check("d all / dx", g.a, gx, 1e-9);
  fz_check("d all / dy", g.b, gy, 1e-9);
  double t = __enzyme_fwddiff((void *)all, x, 0.7, y, -1.1);
  fz_check("forward = 0.7 gx - 1.1 gy", t, 0.7 * gx - 1.1 * gy, 1e-9);
  return fz_finish();
}
