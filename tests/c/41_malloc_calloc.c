// OPT: O0 O2
// malloc/free and calloc of temporary buffers inside the differentiated function.
#include "fz_test.h"

double f(const double *x, int n) {
  double *t = (double *)malloc(sizeof(double) * (size_t)n);
  double *u = (double *)calloc((size_t)n + 1, sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i] + 1.0;
  for (int i = 0; i < n; i++) u[i + 1] = u[i] + t[i] * x[i];
  double s = 0.0;
  for (int i = 0; i <= n; i++) s += u[i];
  free(t);
  free(u);
  return s;
}

#define N 15
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(41);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* u[k] = sum_{i<k} (x_i^3 + x_i); s = sum_k u[k] -> weight of term i is (n - i) */
  for (int i = 0; i < N; i++) want[i] = (3.0 * x[i] * x[i] + 1.0) * (N - i);
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
