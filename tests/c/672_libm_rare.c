// OPT: O0 O1 O2 O3
// libm functions that previous sweeps did not reach: `nexttoward` / `nextafter` (derivative
// 1 in x, 0 in the direction), `frexp` and `ldexp` (mantissa scaled by 2^-e: derivative
// 2^-e, piecewise), `scalbn`, `modf`, `logb`/`ilogb` (piecewise constant), `copysign`,
// `fmod` in both arguments, `remquo`, `trunc`/`round`/`rint` next to active values.
// Oracles: analytic formulas and finite differences.
#include "fz_test.h"

double f_next(double x) { return nexttoward(x, 10.0L) * nextafter(x, -3.0) + x; }
double f_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m + ldexp(m, 3) + e;
}
double f_scal(double x) { return scalbn(x, 4) + x * logb(x) + ilogb(x); }
double f_modf(double x) {
  double ip;
  double fr = modf(x, &ip);
  return fr * fr + ip * x;
}
double f_fmod(double x, double y) { return fmod(x, y) * copysign(1.5, y) + remainder(x, y); }
double f_remquo(double x) {
  int q;
  double r = remquo(x, 0.75, &q);
  return r * r + q * x;
}
double f_round(double x) { return x * trunc(x) + round(x) * x + rint(x * 2) * sin(x); }

int main(void) {
  double xs[] = {0.37, 1.9, -2.6, 5.3};
  for (int k = 0; k < 4; k++) {
    double x = xs[k];
    fz_check("nexttoward", __enzyme_autodiff((void *)f_next, x), fz_fd1(f_next, x), 1e-5);
    fz_check("frexp", __enzyme_autodiff((void *)f_frexp, x), fz_fd1(f_frexp, x), 1e-6);
    int e;
    double m = frexp(x, &e);
    fz_check("frexp analytic", __enzyme_autodiff((void *)f_frexp, x),
             (2 * m + 8) * ldexp(1.0, -e), 1e-12);
    fz_check("scalbn", __enzyme_autodiff((void *)f_scal, x), fz_fd1(f_scal, x), 1e-6);
    fz_check("modf", __enzyme_autodiff((void *)f_modf, x), fz_fd1(f_modf, x), 1e-6);
    fz_check("remquo", __enzyme_autodiff((void *)f_remquo, x), fz_fd1(f_remquo, x), 1e-6);
    fz_check("round", __enzyme_autodiff((void *)f_round, x), fz_fd1(f_round, x), 1e-6);
    double y = 0.7 + 0.1 * k;
    fz_grad2 g = __enzyme_autodiff2((void *)f_fmod, x, y);
    double q = trunc(x / y), r = nearbyint(x / y);
    fz_check("fmod dx", g.d0, copysign(1.5, y) + 1, 1e-12);
    fz_check("fmod dy", g.d1, -q * copysign(1.5, y) - r, 1e-12);
  }
  return fz_finish();
}
