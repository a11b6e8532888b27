// OPT: O0 O2
// erf erfc fmax fmin fabs copysign fma, and floor/ceil/round/trunc whose
// derivative contribution is zero.
#include "fz_test.h"

double f_erf(double x) { return erf(x); }
double f_erfc(double x) { return erfc(x); }
double f_fabs(double x) { return fabs(x) * x; }
double f_fmax(double x, double y) { return fmax(x, y) * 2.0 + fmin(x, y); }
double f_copysign(double x, double y) { return copysign(x, y); }
double f_fma(double a, double b, double c) { return fma(a, b, c) * a; }
double f_round(double x) { return x * floor(x) + ceil(x) * x * x + round(x) + trunc(x) + nearbyint(x); }

static const double two_over_sqrtpi = 1.1283791670955126;

int main(void) {
  fz_seed(13);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1.5, 1.5);
    /* keep away from kinks of fabs/fmax/round */
    if (fabs(x) < 0.05) x += 0.2;
    double d = __enzyme_autodiff((void *)f_erf, x);
    fz_check("derf", d, two_over_sqrtpi * exp(-x * x), 1e-10);
    fz_check("derf fd", d, fz_fd1(f_erf, x), 1e-6);
    d = __enzyme_autodiff((void *)f_erfc, x);
    fz_check("derfc", d, -two_over_sqrtpi * exp(-x * x), 1e-10);
    d = __enzyme_autodiff((void *)f_fabs, x);
    fz_check("d(|x|x)", d, 2.0 * fabs(x), 1e-10);
    double y = x + (t % 2 ? 0.7 : -0.7);
    fz_grad2 g = __enzyme_autodiff2((void *)f_fmax, x, y);
    fz_check("dfmax/dx", g.d0, x > y ? 2.0 : 1.0, 1e-10);
    fz_check("dfmax/dy", g.d1, x > y ? 1.0 : 2.0, 1e-10);
    g = __enzyme_autodiff2((void *)f_copysign, x, y);
    /* copysign(x,y) = |x| sgn(y): d/dx = sgn(x) sgn(y), d/dy = 0 */
    fz_check("dcopysign/dx", g.d0, ((x > 0) == (y > 0)) ? 1.0 : -1.0, 1e-10);
    fz_check("dcopysign/dy", g.d1, 0.0, 1e-10);
    double a = fz_uniform(-2, 2), b = fz_uniform(-2, 2), c = fz_uniform(-2, 2);
    fz_grad3 g3 = __enzyme_autodiff3((void *)f_fma, a, b, c);
    fz_check("dfma/da", g3.d0, 2.0 * a * b + c, 1e-10);
    fz_check("dfma/db", g3.d1, a * a, 1e-10);
    fz_check("dfma/dc", g3.d2, a, 1e-10);
    double r = fz_uniform(-3, 3);
    if (fabs(r - floor(r) - 0.5) < 0.05 || fabs(r - floor(r)) < 0.05) r += 0.25;
    d = __enzyme_autodiff((void *)f_round, r);
    fz_check("dround-ish", d, floor(r) + 2.0 * ceil(r) * r, 1e-10);
    fz_check("dround-ish fd", d, fz_fd1(f_round, r), 1e-6);
  }
  return fz_finish();
}
