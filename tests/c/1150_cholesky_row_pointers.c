// OPT: O0 O1 O2 O3
// Cholesky factorization of a symmetric positive definite matrix held as double ** (an
// array of row pointers, the way numerical codes in the wild allocate matrices), with the
// factor L allocated inside the function the same way; the objective is
// log det A + b^T A^{-1} b / 2 (two triangular solves). Only the lower triangle of A is
// read. The shadow of A is an array of shadow rows (enzyme_dup of a double **).
// Oracle: analytic, d/dA_ij = c_ij ((A^-1)_ij - z_i z_j / 2) with z = A^-1 b, c = 1 on
// the diagonal and 2 below it, 0 above (the upper triangle is never read); d/db = z;
// A^-1 by Gauss-Jordan elimination in main; forward mode against the same numbers.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

double chol_objective(double **A, const double *b, int n) {
  double **L = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) L[i] = calloc(n, sizeof(double));
  for (int j = 0; j < n; j++) {
    double s = A[j][j];
    for (int k = 0; k < j; k++) s -= L[j][k] * L[j][k];
    L[j][j] = sqrt(s);
    for (int i = j + 1; i < n; i++) {
      double t = A[i][j];
      for (int k = 0; k < j; k++) t -= L[i][k] * L[j][k];
      L[i][j] = t / L[j][j];
    }
  }
  double logdet = 0.0;
  for (int i = 0; i < n; i++) logdet += 2.0 * log(L[i][i]);
  double *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    double t = b[i];
    for (int k = 0; k < i; k++) t -= L[i][k] * y[k];
    y[i] = t / L[i][i];
  }
  double q = 0.0;
  for (int i = 0; i < n; i++) q += y[i] * y[i];
  free(y);
  for (int i = 0; i < n; i++) free(L[i]);
  free(L);
  return logdet + 0.5 * q;
}

static void invert(double a[N][N], double inv[N][N]) {
  double m[N][2 * N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 2 * N; j++) m[i][j] = j < N ? a[i][j] : (j - N == i);
  for (int c = 0; c < N; c++) {
    int p = c;
    for (int r = c + 1; r < N; r++)
      if (fabs(m[r][c]) > fabs(m[p][c])) p = r;
    for (int j = 0; j < 2 * N; j++) {
      double t = m[c][j];
      m[c][j] = m[p][j];
      m[p][j] = t;
    }
    double d = m[c][c];
    for (int j = 0; j < 2 * N; j++) m[c][j] /= d;
    for (int r = 0; r < N; r++)
      if (r != c) {
        double f = m[r][c];
        for (int j = 0; j < 2 * N; j++) m[r][j] -= f * m[c][j];
      }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) inv[i][j] = m[i][j + N];
}

int main(void) {
  fz_seed(1150);
  double full[N][N], B[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) B[i][j] = fz_uniform(-1, 1);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = (i == j) ? N : 0.0;
      for (int k = 0; k < N; k++) s += B[i][k] * B[j][k];
      full[i][j] = s;
    }
  double *A[N], *dA[N], *tA[N];
  for (int i = 0; i < N; i++) {
    A[i] = malloc(N * sizeof(double));
    dA[i] = calloc(N, sizeof(double));
    tA[i] = calloc(N, sizeof(double));
    for (int j = 0; j < N; j++) A[i][j] = full[i][j];
  }
  double b[N], db[N] = {0}, tb[N] = {0};
  fz_fill(b, N, -1, 1);

  double inv[N][N], z[N];
  invert(full, inv);
  for (int i = 0; i < N; i++) {
    z[i] = 0;
    for (int j = 0; j < N; j++) z[i] += inv[i][j] * b[j];
  }
  double logdet_plus = 0;
  for (int i = 0; i < N; i++) logdet_plus += 0.5 * b[i] * z[i];
  double f = chol_objective(A, b, N);
  double ld = f - logdet_plus;
  fz_check("primal logdet is finite", isfinite(ld) ? 1.0 : 0.0, 1.0, 0);

  __enzyme_autodiff((void *)chol_objective, enzyme_dup, A, dA, enzyme_dup, b, db,
                    enzyme_const, N);
  char nm[64];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double want = j > i ? 0.0 : (i == j ? 1.0 : 2.0) * (inv[i][j] - 0.5 * z[i] * z[j]);
      snprintf(nm, sizeof nm, "dA[%d][%d]", i, j);
      fz_check(nm, dA[i][j], want, 1e-10);
    }
  }
  fz_check_arr("db", db, z, N, 1e-10);

  /* forward mode: tangent along the lower triangle and b */
  double want_t = 0.0;
  fz_seed(7);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++) {
      tA[i][j] = fz_uniform(-1, 1);
      want_t += tA[i][j] * dA[i][j];
    }
    tb[i] = fz_uniform(-1, 1);
    want_t += tb[i] * db[i];
  }
  double t = __enzyme_fwddiff((void *)chol_objective, enzyme_dup, A, tA, enzyme_dup, b, tb,
                              enzyme_const, N);
  fz_check("forward tangent = <grad, v>", t, want_t, 1e-10);
  for (int i = 0; i < N; i++) free(A[i]), free(dA[i]), free(tA[i]);
  return fz_finish();
}
