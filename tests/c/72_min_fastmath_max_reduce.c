// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// Minimal: a running max over a double array with -ffast-math is vectorized
// into llvm.vector.reduce.fmax at O2/O3 (no derivative rule).
#include "fz_test.h"

#define N 16
double vmax(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

int main(void) {
  fz_seed(1171);
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1, 1);
  x[5] = 2.0;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)vmax, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  want[5] = 1.0;
  fz_check_arr("dvmax", dx, want, N, 1e-12);
  return fz_finish();
}
