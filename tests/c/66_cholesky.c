// OPT: O0 O1 O2 O3
// In-place Cholesky factorization (lower triangle overwritten with L) of a
// symmetric positive definite matrix; f = log det = 2 sum log L_ii plus a
// quadratic form x^T A^{-1} x via two triangular solves on a VLA.
#include "fz_test.h"

#define N 6

double chol_f(double *A, const double *x, int n) {
  for (int j = 0; j < n; j++) {
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
    d = sqrt(d);
    A[j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / d;
    }
  }
  double y[n];
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int k = 0; k < i; k++) s -= A[i * n + k] * y[k];
    y[i] = s / A[i * n + i];
  }
  double q = 0.0, ld = 0.0;
  for (int i = 0; i < n; i++) {
    q += y[i] * y[i];
    ld += 2.0 * log(A[i * n + i]);
  }
  return ld + q;
}

/* only the lower triangle is read, so FD perturbs single entries */
struct ctx { double *A, *x; };
static double eval(void *p) {
  struct ctx *c = p;
  double A[N * N];
  memcpy(A, c->A, sizeof A);
  return chol_f(A, c->x, N);
}

int main(void) {
  fz_seed(112);
  double B[N * N], A0[N * N], A[N * N], dA[N * N], fdA[N * N], x[N], dx[N], fdx[N];
  fz_fill(B, N * N, -1, 1);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = (i == j) ? 1.0 : 0.0;
      for (int k = 0; k < N; k++) s += B[i * N + k] * B[j * N + k];
      A0[i * N + j] = s;
    }
  fz_fill(x, N, -1, 1);
  memcpy(A, A0, sizeof A);
  fz_zero(dA, N * N);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)chol_f, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {A0, x};
  fz_fd_grad(eval, &c, A0, N * N, fdA);
  fz_fd_grad(eval, &c, x, N, fdx);
  fz_check_arr("dA", dA, fdA, N * N, 1e-6);
  fz_check_arr("dx", dx, fdx, N, 1e-6);
  return fz_finish();
}
