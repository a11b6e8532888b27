// OPT: O0 O1 O2 O3
// Minimal: two __enzyme_autodiff calls in the arms of an if/else that differ
// only in the function. SimplifyCFG (O1/O2) sinks them into one call whose
// first argument is `select %c, @f, @g`, which ferrozyme rejects with
// bad-autodiff-call. The user wrote two direct calls.
#include "fz_test.h"

double f(double x) { return x * x; }
double g(double x) { return x * x * x; }

int main(void) {
  for (int w = 0; w < 2; w++) {
    volatile double xv = 1.5;
    double x = xv, d;
    if (w)
      d = __enzyme_autodiff((void *)g, x);
    else
      d = __enzyme_autodiff((void *)f, x);
    fz_check(w ? "dg" : "df", d, w ? 3 * x * x : 2 * x, 1e-12);
  }
  return fz_finish();
}
