// OPT: O0 O1 O2 O3
// In-place LU decomposition without pivoting (Doolittle, overwriting A),
// then log|det| = sum log|U_ii| and a solve with the factors.
// d log|det A| / dA = A^{-T}; the solve is checked by finite differences.
#include "fz_test.h"

#define N 5

void lu(double *A, int n) {
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      A[i * n + k] /= A[k * n + k];
      for (int j = k + 1; j < n; j++) A[i * n + j] -= A[i * n + k] * A[k * n + j];
    }
}

double logdet(double *A, int n) {
  lu(A, n);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += log(fabs(A[i * n + i]));
  return s;
}

/* solve A x = b in place (b overwritten with x), return sum w_i x_i */
double solve(double *A, double *b, int n) {
  lu(A, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) b[i] -= A[i * n + j] * b[j];
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) b[i] -= A[i * n + j] * b[j];
    b[i] /= A[i * n + i];
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += b[i] * (double)(i + 1);
  return s;
}

static void inverse(const double *A, double *inv) { /* Gauss-Jordan, oracle only */
  double M[N][2 * N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 2 * N; j++) M[i][j] = j < N ? A[i * N + j] : (j - N == i);
  for (int k = 0; k < N; k++) {
    double p = M[k][k];
    for (int j = 0; j < 2 * N; j++) M[k][j] /= p;
    for (int i = 0; i < N; i++)
      if (i != k) {
        double f = M[i][k];
        for (int j = 0; j < 2 * N; j++) M[i][j] -= f * M[k][j];
      }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) inv[i * N + j] = M[i][N + j];
}

struct ctx { double *A, *b; };
static double eval(void *p) {
  struct ctx *c = p;
  double A[N * N], b[N];
  memcpy(A, c->A, sizeof A);
  memcpy(b, c->b, sizeof b);
  return solve(A, b, N);
}

int main(void) {
  fz_seed(111);
  double A0[N * N], A[N * N], dA[N * N], inv[N * N], want[N * N];
  fz_fill(A0, N * N, -1, 1);
  for (int i = 0; i < N; i++) A0[i * N + i] += 4.0; /* diagonally dominant */
  memcpy(A, A0, sizeof A);
  fz_zero(dA, N * N);
  __enzyme_autodiff((void *)logdet, enzyme_dup, A, dA, enzyme_const, N);
  inverse(A0, inv);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) want[i * N + j] = inv[j * N + i];
  fz_check_arr("dlogdet", dA, want, N * N, 1e-10);

  double b0[N], b[N], db[N], fdA[N * N], fdb[N];
  fz_fill(b0, N, -1, 1);
  memcpy(A, A0, sizeof A);
  memcpy(b, b0, sizeof b);
  fz_zero(dA, N * N);
  fz_zero(db, N);
  __enzyme_autodiff((void *)solve, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, N);
  struct ctx c = {A0, b0};
  fz_fd_grad(eval, &c, A0, N * N, fdA);
  fz_fd_grad(eval, &c, b0, N, fdb);
  fz_check_arr("dsolve/dA", dA, fdA, N * N, 1e-6);
  fz_check_arr("dsolve/db", db, fdb, N, 1e-6);
  return fz_finish();
}
