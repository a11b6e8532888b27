// OPT: O0 O1 O2 O3
// Dot product; pointers WITHOUT markers (treated as enzyme_dup, shadow follows)
// and an unmarked int (constant by default).
#include "fz_test.h"

double dot(const double *x, const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

#define N 203

int main(void) {
  fz_seed(15);
  double x[N], y[N], dx[N], dy[N];
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  fz_zero(dx, N);
  fz_zero(dy, N);
  __enzyme_autodiff((void *)dot, x, dx, y, dy, N);
  fz_check_arr("dx", dx, y, N, 1e-10);
  fz_check_arr("dy", dy, x, N, 1e-10);
  /* marked form, y constant */
  fz_zero(dx, N);
  fz_zero(dy, N);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, N);
  fz_check_arr("dx (y const)", dx, y, N, 1e-10);
  double zero[N];
  fz_zero(zero, N);
  fz_check_arr("dy untouched", dy, zero, N, 0.0);
  /* same pointer twice: d(x.x)/dx = 2x, both shadows are the same buffer */
  fz_zero(dx, N);
  __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, x, dx, enzyme_const, N);
  double want[N];
  for (int i = 0; i < N; i++) want[i] = 2.0 * x[i];
  fz_check_arr("d(x.x) aliased", dx, want, N, 1e-10);
  return fz_finish();
}
