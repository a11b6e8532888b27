#include "fz_test.h"

double loss(const double *w, const double *x, int n);

enum { N = 4 };
static double X[N];

static double eval(void *w) { return loss((const double *)w, X, N); }

int main(void) {
  fz_seed(501);
  double w[N * N], dw[N * N], fd[N * N], dx[N];
  fz_fill(w, N * N, -1, 1);
  fz_fill(X, N, -1, 1);
  fz_zero(dw, N * N);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, w, dw, enzyme_dup, X, dx, enzyme_const, N);
  fz_fd_grad(eval, w, w, N * N, fd);
  fz_check_arr("dw", dw, fd, N * N, 1e-6);
  double fdx[N];
  for (int i = 0; i < N; i++) fdx[i] = fz_fd_ptr(eval, w, &X[i]);
  fz_check_arr("dx", dx, fdx, N, 1e-6);
  return fz_finish();
}
