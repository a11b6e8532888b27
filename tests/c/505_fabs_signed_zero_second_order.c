// OPT: O0 O2
// The derivative of fabs keeps the sign of zero (copysign(1, x), as Enzyme's rule): the
// inner value of |-x^2| at x = 0 is -0.0, and d/dx |u| = sign(u) u' must use that sign for
// the second derivative to be right. f(x) = |-x^2| = x^2, so f'(x) = 2x and f''(x) = 2
// everywhere, also at 0 (forward over reverse). Oracles: analytic, and central finite
// differences of the first derivative away from zero.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double f(double x) { return fabs(-x * x); }

double df(double x) { return __enzyme_autodiff((void *)f, x); }

double ddf(double x) { return __enzyme_fwddiff((void *)df, x, 1.0); }

int main(void) {
  const double xs[] = {0.0, -0.0, 0.5, -1.25, 3.0};
  for (int k = 0; k < 5; k++) {
    double x = xs[k];
    fz_check("f' = 2x", df(x), 2 * x, 1e-12);
    fz_check("f'' = 2", ddf(x), 2.0, 1e-12);
  }
  double h = 1e-5, x = 0.7;
  fz_check("f'' by differences of f'", ddf(x), (df(x + h) - df(x - h)) / (2 * h), 1e-6);
  return fz_finish();
}
