// OPT: O0 O1 O2 O3
// The canonical example: sum of squares over a pointer; dx = 2x.
// Also checks that gradients ACCUMULATE (+=) into the shadow.
#include "fz_test.h"

double sumsq(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

#define N 37

int main(void) {
  fz_seed(3);
  double x[N], dx[N], want[N];
  fz_fill(x, N, -2.0, 2.0);
  for (int n = 1; n <= N; n += 9) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < N; i++) want[i] = i < n ? 2.0 * x[i] : 0.0;
    char what[64];
    snprintf(what, sizeof what, "dx n=%d", n);
    fz_check_arr(what, dx, want, N, 1e-10);
  }
  /* accumulation: two calls without zeroing -> 2 * 2x, plus a nonzero start */
  for (int i = 0; i < N; i++) dx[i] = 1.0;
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 1.0 + 4.0 * x[i];
  fz_check_arr("dx accumulated", dx, want, N, 1e-10);
  /* the primal input is untouched */
  double y[N];
  fz_seed(3);
  fz_fill(y, N, -2.0, 2.0);
  fz_check_arr("x unchanged", x, y, N, 0.0);
  return fz_finish();
}
