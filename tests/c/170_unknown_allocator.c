// OPT: O0 O2
// Regression (was IGNOREd: memalign was not a known allocator, so derivatives stored
// through its memory were silently dropped). Found by the Python package's numba path (issue 12): a scratch array from an
// allocator Ferrozyme does not know. Oracles: the analytic gradient
// d/dx_i sum_j exp(x_j) x_j = exp(x_i) (1 + x_i), and finite differences.
#include <malloc.h>
#include "fz_test.h"

#define N 6

double f(const double *x, int n) {
  double *t = memalign(64, (size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(x[i]);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  free(t);
  return s;
}

static double X[N];
static double eval(void *ctx) { (void)ctx; return f(X, N); }

int main(void) {
  fz_seed(170);
  fz_fill(X, N, -1, 1);
  double dx[N] = {0}, want[N], fd[N];
  __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = exp(X[i]) * (1 + X[i]);
  fz_fd_grad(eval, NULL, X, N, fd);
  fz_check_arr("grad vs analytic", dx, want, N, 1e-12);
  fz_check_arr("grad vs FD", dx, fd, N, 1e-6);
  return fz_finish();
}
