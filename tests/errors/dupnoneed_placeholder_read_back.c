// OPT: O0 O1 O2 O3
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: placeholder primal pointer
// EXPECT-ERROR: pass a real buffer
// EXPECT-ERROR-LINE: READ-BACK
// `enzyme_dupnoneed, nullptr`: no primal buffer. The function reads its own output back
// (at indices only known at run time), so the stores into it cannot simply be left out
// as they are for a write-only output (tests/c/855): a clear error, never a read of
// address 0 at run time.
#include "../c/fz_test.h"

void rank_sum(const double *x, const int *idx, int n, double *out) {
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += out[idx[i]]; // READ-BACK
  out[0] = s;
}

int main(int argc, char **argv) {
  (void)argv;
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, dout[4] = {1, 0, 0, 0};
  int idx[4] = {3, argc, 1, 0};
  __enzyme_autodiff((void *)rank_sum, enzyme_dup, x, dx, enzyme_const, idx, 4, enzyme_dupnoneed,
                    (double *)0, dout);
  return (int)dx[0];
}
