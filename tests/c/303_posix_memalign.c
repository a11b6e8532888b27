// OPT: O0 O2
// posix_memalign work buffers in the differentiated function. Oracle: analytic.
#include "fz_test.h"

double f(const double *x, int n) {
  double *t = NULL;
  if (posix_memalign((void **)&t, 32, n * sizeof(double)) != 0) return 0;
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i];
  free(t);
  return s;
}

int main(void) {
  enum { N = 16 };
  double x[N], dx[N];
  fz_seed(283);
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("dx", dx[i], 4 * x[i] * x[i] * x[i], 1e-12);
  return fz_finish();
}
