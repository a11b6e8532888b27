// OPT: O0 O2
// Regression for issue 10, item 4: `apply(f, x)` calls its argument through a function
// pointer; at -O0 nothing inlines it away, so the differentiated code makes an indirect
// call (rejected before). Oracle: analytic.
#include "fz_test.h"

double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }
double apply(double (*f)(double), double x) { return f(x); }
double both(double x) { return apply(sq, x) + 2 * apply(cube, x); }

int main(void) {
  double x = 0.7;
  double d = __enzyme_autodiff((void *)both, x);
  fz_check("d", d, 2 * x + 6 * x * x, 1e-12);
  return fz_finish();
}
