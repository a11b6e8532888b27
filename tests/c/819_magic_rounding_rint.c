// OPT: O0 O1 O2 O3
// IGNORE: a wrong derivative, not understood yet: d/dx [rint(x) x] with rint(x) written as `(x + 2^52) - 2^52` gives -1.5 at x = -1.6 (want rint(-1.6) = -2; the other points pass), at every level
// The rounding idiom alone (musl's `rint`): y = (x + 2^52) - 2^52 is rint(x), whose
// derivative is 0 almost everywhere, so d/dx [y x] = y. Oracle: libm's `rint`.
#include "fz_test.h"

double rint_like(double x) {
  double y = (x + 4503599627370496.0) - 4503599627370496.0; /* 2^52 */
  return y * x;
}

int main(void) {
  double xs[5] = {0.4, -1.6, 2.3, 4.1, -0.2};
  for (int k = 0; k < 5; k++)
    fz_check("d/dx rint(x) x = rint(x)", __enzyme_autodiff((void *)rint_like, xs[k]), rint(xs[k]), 0);
  return fz_finish();
}
