// OPT: O0 O1 O2 O3
// A counted loop whose bound is far beyond what it runs: `i < n` with n = 2^50, left by a
// `break` after a few iterations. The fixed-size tapes of counted loops (reverse/
// fixed_tape.rs) reserved the room for the whole bound before the loop, which no
// allocator grants: the program aborted at -O0 (found by the lead reviewing the change).
// A loop with another way out now keeps the growable tape. Also a nest whose inner loop
// returns early, and a loop whose bound is below its start (no iteration).
// Oracles: central finite differences and the analytic derivative of the no-iteration
// case.
#include <math.h>

#include "fz_test.h"

double early_break(double x, long n) {
  double s = x;
  for (long i = 0; i < n; i++) {
    s = sin(s) * x;
    if (s < 0.2)
      break;
  }
  return s;
}

double nest_with_return(double x, long n, long m) {
  double s = x;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++) {
      s = cos(s) * x + 0.01 * (double)j;
      if (s > 0.95)
        return s * s;
    }
  return s;
}

static long g_n = 1L << 50, g_m = 1L << 40;
static double eb(double x) { return early_break(x, g_n); }
static double nr(double x) { return nest_with_return(x, g_n, g_m); }

int main(void) {
  double xs[3] = {0.9, 0.7, 0.5};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    fz_check("early break vs finite differences",
             __enzyme_autodiff((void *)early_break, x, g_n), fz_fd1(eb, x), 1e-6);
    fz_check("nest with return vs finite differences",
             __enzyme_autodiff((void *)nest_with_return, x, g_n, g_m), fz_fd1(nr, x), 1e-6);
    fz_check("bound below start: d/dx x = 1",
             __enzyme_autodiff((void *)early_break, x, -5L), 1.0, 0);
  }
  return fz_finish();
}
