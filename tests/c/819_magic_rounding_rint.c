// OPT: O0 O1 O2 O3
// The rounding idiom alone (musl's `rint` for x >= 0): y = (x + 2^52) - 2^52 is a
// step function of x, derivative 0 almost everywhere, so d/dx [y x] = y. For x >= 0 it
// is rint(x); for negative x it is not (2^52 - 1.6 rounds to 2^52 - 1.5: doubles just
// below 2^52 are 0.5 apart), so the oracle is y itself, computed apart through volatile
// operands (no constant folding), and for x >= 0 also libm's `rint`.
#include "fz_test.h"

double rint_like(double x) {
  double y = (x + 4503599627370496.0) - 4503599627370496.0; /* 2^52 */
  return y * x;
}

int main(void) {
  double xs[5] = {0.4, -1.6, 2.3, 4.1, -0.2};
  for (int k = 0; k < 5; k++) {
    volatile double big = 4503599627370496.0, xv = xs[k];
    double y = (xv + big) - big;
    fz_check("d/dx [y(x) x] = y(x)", __enzyme_autodiff((void *)rint_like, xs[k]), y, 0);
    if (xs[k] >= 0) fz_check("y(x) = rint(x) for x >= 0", y, rint(xs[k]), 0);
  }
  return fz_finish();
}
