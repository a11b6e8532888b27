// OPT: O0 O1 O2 O3
// Matrix inversion by Gauss-Jordan elimination with partial pivoting the way numerical
// C code writes it: an array of row pointers (`double **`, malloc'd inside the function)
// into an augmented work matrix, pivot rows exchanged by swapping the row pointers, the
// pivot chosen by `fabs` comparisons (decisions on active values), log|det| accumulated
// with the sign of the permutation. The loss is log|det A| + sum of (A^-1)_ij c_ij.
// Oracles: analytic (d log|det A| / dA = A^-T, d tr(C^T A^-1) / dA = -A^-T C A^-T) and
// finite differences.
#include "fz_test.h"

#define N 4

double inv_loss(const double *A, const double *C, int n) {
  double *work = malloc(n * 2 * n * sizeof(double));
  double **row = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    row[i] = work + i * 2 * n;
    for (int j = 0; j < n; j++) { row[i][j] = A[i * n + j]; row[i][n + j] = (i == j); }
  }
  double logdet = 0.0;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(row[i][k]) > fabs(row[p][k])) p = i;
    if (p != k) { double *t = row[p]; row[p] = row[k]; row[k] = t; }
    double piv = row[k][k];
    logdet += log(fabs(piv));
    for (int j = 0; j < 2 * n; j++) row[k][j] /= piv;
    for (int i = 0; i < n; i++) {
      if (i == k) continue;
      double f = row[i][k];
      for (int j = 0; j < 2 * n; j++) row[i][j] -= f * row[k][j];
    }
  }
  double s = logdet;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += row[i][n + j] * C[i * n + j];
  free(row);
  free(work);
  return s;
}

static double A[N * N], Cm[N * N];
static double eval(void *ctx) { (void)ctx; return inv_loss(A, Cm, N); }

static void invert(const double *a, double *inv) {
  /* the oracle's own inverse: cofactor-free, by solving with the primal code's output */
  double m[N][2 * N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 2 * N; j++) m[i][j] = j < N ? a[i * N + j] : (j - N == i);
  for (int k = 0; k < N; k++) {
    int p = k;
    for (int i = k + 1; i < N; i++) if (fabs(m[i][k]) > fabs(m[p][k])) p = i;
    for (int j = 0; j < 2 * N; j++) { double t = m[p][j]; m[p][j] = m[k][j]; m[k][j] = t; }
    double piv = m[k][k];
    for (int j = 0; j < 2 * N; j++) m[k][j] /= piv;
    for (int i = 0; i < N; i++) if (i != k) {
      double f = m[i][k];
      for (int j = 0; j < 2 * N; j++) m[i][j] -= f * m[k][j];
    }
  }
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) inv[i * N + j] = m[i][N + j];
}

int main(void) {
  fz_seed(740);
  fz_fill(A, N * N, -1, 1);
  fz_fill(Cm, N * N, -1, 1);
  for (int i = 0; i < N; i++) A[i * N + (N - 1 - i)] += 2.0; /* pivoting happens */
  double dA[N * N] = {0}, fd[N * N], want[N * N], inv[N * N];
  __enzyme_autodiff((void *)inv_loss, enzyme_dup, A, dA, enzyme_const, Cm, enzyme_const, N);
  invert(A, inv);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double w = inv[j * N + i]; /* A^-T */
      for (int k = 0; k < N; k++)
        for (int l = 0; l < N; l++) w -= inv[k * N + i] * Cm[k * N + l] * inv[j * N + l];
      want[i * N + j] = w;
    }
  fz_check_arr("dA analytic", dA, want, N * N, 1e-10);
  fz_fd_grad(eval, NULL, A, N * N, fd);
  fz_check_arr("dA fd", dA, fd, N * N, 1e-6);
  return fz_finish();
}
