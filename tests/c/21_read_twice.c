// OPT: O0 O2
// The same element is loaded several times (x[i]*x[i] as two loads,
// x[0] read in every iteration, mirrored indexing x[i]*x[n-1-i]).
#include "fz_test.h"

double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    volatile int j = i; /* forces separate loads of the same element */
    s += x[i] * x[j] + x[0] * x[i] + x[i] * x[n - 1 - i];
  }
  return s;
}

#define N 11
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(21);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  for (int i = 0; i < N; i++) want[i] = 2 * x[i] + x[0] + 2 * x[N - 1 - i];
  want[0] += sum; /* d/dx0 of x0 * sum_i x_i, the i=0 term counted in 'x[0]' above */
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
