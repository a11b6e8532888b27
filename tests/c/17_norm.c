// OPT: O0 O1 O2 O3
// Euclidean norm: sqrt of a sum of squares; dx = x / ||x||.
#include "fz_test.h"

double norm2(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

#define N 100
struct ctx { double *x; };
static double eval(void *c) { return norm2(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(17);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)norm2, enzyme_dup, x, dx, enzyme_const, N);
  double nrm = 0;
  for (int i = 0; i < N; i++) nrm += x[i] * x[i];
  nrm = sqrt(nrm);
  for (int i = 0; i < N; i++) want[i] = x[i] / nrm;
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
