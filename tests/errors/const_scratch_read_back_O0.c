// OPT: O0 O1 O2 O3
// EXPECT-ERROR: mismatched activity
// EXPECT-ERROR: write_both
// EXPECT-ERROR: enzyme_const
// EXPECT-ERROR-LINE: STORE-MARKER
// An `enzyme_const` scratch buffer the function writes from its active input and reads
// back: the read value has no derivative. -O1..-O3 reported it; at -O0 (sweep11) the
// store's `x[i]` is a separate load that activity analysis marks inactive (its value only
// reaches memory without a shadow), so the audit missed it and the gradient silently
// lacked the scratch's part.
#include "../c/fz_test.h"

double write_both(const double *x, double *scratch, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    scratch[i] = x[i] * x[i]; // STORE-MARKER
    out[i] = sin(x[i]) * scratch[i];
    s += scratch[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.5}, dx[4] = {0};
  double scratch[4] = {0}, out[4], dout[4] = {1, 2, 3, 4};
  __enzyme_autodiff((void *)write_both, enzyme_dup, x, dx, enzyme_const, scratch, enzyme_dup,
                    out, dout, enzyme_const, 4);
  printf("%g\n", dx[0]);
  return 0;
}
