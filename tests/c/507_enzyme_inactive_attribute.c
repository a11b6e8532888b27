// OPT: O0 O2
// Enzyme's `__attribute__((enzyme_inactive))` on a function written in the source: its
// calls carry no derivative, at every optimization level (also when clang would inline
// it). f(x) = sin(x) * scale(x) with scale inactive: the derivative treats scale(x) as a
// constant, df/dx = cos(x) * scale(x) (not the full derivative cos(x) * 3x + 3 sin(x)).
// Forward mode says the same. Oracle: analytic.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((enzyme_inactive)) double scale(double x) { return 3.0 * x; }

double f(double x) { return sin(x) * scale(x); }

int main(void) {
  const double xs[] = {0.7, -1.3, 2.4};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    double want = cos(x) * 3.0 * x;
    fz_check("reverse: scale(x) constant", __enzyme_autodiff((void *)f, x), want, 1e-12);
    fz_check("forward: scale(x) constant", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-12);
  }
  return fz_finish();
}
