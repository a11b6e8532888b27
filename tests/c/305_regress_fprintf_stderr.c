// OPT: O0 O2
// Regression for issue 10, item 1: a differentiated function that prints a trace with
// fprintf(stderr, ...). It compiled, then aborted at run time ("the pointer read from
// global `stderr` has no shadow"): a FILE * can never lead to floating-point data, so
// it needs no shadow. Oracle: analytic.
#include "fz_test.h"

double traced(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * (i + 1);
    fprintf(stderr, "i=%d s=%g\n", i, s);
  }
  fprintf(stdout, "done\n");
  return s;
}

int main(void) {
  double x[4] = {0.5, -1.0, 1.5, 2.0}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)traced, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) fz_check("dx", dx[i], 2 * x[i] * (i + 1), 1e-12);
  return fz_finish();
}
