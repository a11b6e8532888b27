// OPT: O0 O2
// Regression (issue 10): a differentiated function that prints a trace with
// fprintf(stderr, ...) aborted at run time ("the pointer read from global `stderr` has no
// shadow"). A FILE * only passed to output functions needs no shadow. Also snprintf into
// a local buffer and a counter in a global int.
// Oracle: analytic.
#include "fz_test.h"

static long calls;

double traced(const double *x, int n) {
  double s = 0;
  char buf[64];
  for (int i = 0; i < n; i++) {
    s += sin(x[i]) * x[i];
    snprintf(buf, sizeof buf, "%d:%.3f", i, s);
    if (i == n - 1) fprintf(stderr, "trace %s\n", buf);
  }
  calls++;
  fprintf(stderr, "traced: n=%d s=%g calls=%ld\n", n, s, calls);
  return s * s;
}

int main(void) {
  fz_seed(284);
  double x[5], dx[5] = {0};
  fz_fill(x, 5, -1, 1);
  __enzyme_autodiff((void *)traced, enzyme_dup, x, dx, enzyme_const, 5);
  double s = 0;
  for (int i = 0; i < 5; i++) s += sin(x[i]) * x[i];
  for (int i = 0; i < 5; i++)
    fz_check("dx", dx[i], 2 * s * (cos(x[i]) * x[i] + sin(x[i])), 1e-12);
  fz_check("calls", calls, 1, 0);
  return fz_finish();
}
