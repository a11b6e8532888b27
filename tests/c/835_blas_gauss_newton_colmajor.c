// OPT: O0 O1 O2 O3
// ARGS: -lopenblas
// One Gauss-Newton-style step of a small nonlinear least-squares fit written with
// OpenBLAS in column-major storage, as Fortran-minded C users write it: the Jacobian-like
// matrix J (m x n, lda = m) is built from the parameters inside the differentiated
// function, the residual r = J w - y by `cblas_dgemv(ColMajor, NoTrans)`, the normal
// direction g = J^T r by `cblas_dgemv(ColMajor, Trans)`, a rank-one update of J by
// `cblas_dger`, the step `cblas_daxpy`/`cblas_dscal` on a copy of w (`cblas_dcopy`), and
// the loss 0.5 |J' w'|^2-like `cblas_ddot`s. Oracles: the same function written with
// plain loops (its value must agree to rounding), central finite differences, and the
// forward/reverse dot product.
#include "fz_test.h"
#include <cblas.h>
#include <math.h>
#include <stdlib.h>

extern double __enzyme_fwddiff(void *, ...);

#define M 6
#define N 3

static double T[M];

double gn_loss(const double *theta, const double *y) {
  double *J = malloc(M * N * sizeof(double));
  double r[M], g[N], w[N], w2[N], u[M], v[N];
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) J[j * M + i] = exp(-theta[j] * T[i]) + 0.1 * theta[N] * i;
  for (int j = 0; j < N; j++) w[j] = theta[j] * theta[N];
  cblas_dcopy(M, y, 1, r, 1);
  cblas_dgemv(CblasColMajor, CblasNoTrans, M, N, 1.0, J, M, w, 1, -1.0, r, 1);
  cblas_dgemv(CblasColMajor, CblasTrans, M, N, 1.0, J, M, r, 1, 0.0, g, 1);
  for (int i = 0; i < M; i++) u[i] = sin(theta[0] + i);
  for (int j = 0; j < N; j++) v[j] = theta[j];
  cblas_dger(CblasColMajor, M, N, 0.05, u, 1, v, 1, J, M);
  cblas_dcopy(N, w, 1, w2, 1);
  cblas_daxpy(N, -0.1, g, 1, w2, 1);
  cblas_dscal(N, 0.9, w2, 1);
  double q[M];
  cblas_dgemv(CblasColMajor, CblasNoTrans, M, N, 1.0, J, M, w2, 1, 0.0, q, 1);
  double l = 0.5 * cblas_ddot(M, q, 1, q, 1) + 0.25 * cblas_ddot(N, g, 1, w2, 1);
  free(J);
  return l;
}

static double loops(const double *theta, const double *y) {
  double J[M][N], r[M], g[N], w[N], w2[N], q[M];
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) J[i][j] = exp(-theta[j] * T[i]) + 0.1 * theta[N] * i;
  for (int j = 0; j < N; j++) w[j] = theta[j] * theta[N];
  for (int i = 0; i < M; i++) {
    r[i] = -y[i];
    for (int j = 0; j < N; j++) r[i] += J[i][j] * w[j];
  }
  for (int j = 0; j < N; j++) {
    g[j] = 0;
    for (int i = 0; i < M; i++) g[j] += J[i][j] * r[i];
  }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) J[i][j] += 0.05 * sin(theta[0] + i) * theta[j];
  for (int j = 0; j < N; j++) w2[j] = 0.9 * (w[j] - 0.1 * g[j]);
  double l = 0, s = 0;
  for (int i = 0; i < M; i++) {
    q[i] = 0;
    for (int j = 0; j < N; j++) q[i] += J[i][j] * w2[j];
    l += q[i] * q[i];
  }
  for (int j = 0; j < N; j++) s += g[j] * w2[j];
  return 0.5 * l + 0.25 * s;
}

static double th_fd[N + 1], y_fd[M];
static double eval(void *ctx) {
  (void)ctx;
  return gn_loss(th_fd, y_fd);
}

int main(void) {
  for (int i = 0; i < M; i++) {
    T[i] = 0.3 * i;
    y_fd[i] = cos(0.7 * i);
  }
  double th[N + 1] = {0.4, 1.1, -0.3, 0.8}, dth[N + 1] = {0}, fd[N + 1], v[N + 1] = {0.2, -0.5, 0.4, 0.9};
  fz_check("blas vs loops", gn_loss(th, y_fd), loops(th, y_fd), 1e-12);
  __enzyme_autodiff((void *)gn_loss, enzyme_dup, th, dth, enzyme_const, y_fd);
  for (int k = 0; k < N + 1; k++) th_fd[k] = th[k];
  fz_fd_grad(eval, NULL, th_fd, N + 1, fd);
  fz_check_arr("reverse vs fd", dth, fd, N + 1, 1e-6);
  double t = __enzyme_fwddiff((void *)gn_loss, enzyme_dup, th, v, enzyme_const, y_fd);
  double dot = 0;
  for (int k = 0; k < N + 1; k++) dot += dth[k] * v[k];
  fz_check("forward vs reverse dot", t, dot, 1e-10);
  return fz_finish();
}
