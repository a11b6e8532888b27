// OPT: O0 O1 O2 O3
// LU factorization with partial pivoting that swaps row *pointers* of a double ** copy
// (fabs to pick the pivot, an int sign flipped per swap), then det A and the solution of
// A x = b by forward and back substitution; objective det A + sum_i s_i x_i.
// The pivot order depends on the data (integer control flow fed by floats), the copy's
// row pointers are permuted, so the shadow rows must follow their primal rows.
// Oracle: analytic, d det / dA = det A^-T, d(s^T x)/dA = -(A^-T s) x^T, d/db = A^-T s;
// A^-1 by Gauss-Jordan in main; forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

double lu_objective(double **A, const double *b, const double *s, int n) {
  double **U = malloc(n * sizeof(double *));
  double *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    U[i] = malloc(n * sizeof(double));
    for (int j = 0; j < n; j++) U[i][j] = A[i][j];
    y[i] = b[i];
  }
  int sign = 1;
  for (int k = 0; k < n; k++) {
    int p = k;
    double best = fabs(U[k][k]);
    for (int i = k + 1; i < n; i++)
      if (fabs(U[i][k]) > best) best = fabs(U[i][k]), p = i;
    if (p != k) {
      double *tr = U[k];
      U[k] = U[p];
      U[p] = tr;
      double ty = y[k];
      y[k] = y[p];
      y[p] = ty;
      sign = -sign;
    }
    for (int i = k + 1; i < n; i++) {
      double l = U[i][k] / U[k][k];
      U[i][k] = l;
      for (int j = k + 1; j < n; j++) U[i][j] -= l * U[k][j];
      y[i] -= l * y[k];
    }
  }
  double det = sign;
  for (int i = 0; i < n; i++) det *= U[i][i];
  double f = det;
  for (int i = n - 1; i >= 0; i--) {
    double t = y[i];
    for (int j = i + 1; j < n; j++) t -= U[i][j] * y[j];
    y[i] = t / U[i][i];
    f += s[i] * y[i];
  }
  for (int i = 0; i < n; i++) free(U[i]);
  free(U);
  free(y);
  return f;
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

static double det_of(double a[N][N]) {
  double m[N][N], d = 1;
  memcpy(m, a, sizeof m);
  for (int c = 0; c < N; c++) {
    int p = c;
    for (int r = c + 1; r < N; r++)
      if (fabs(m[r][c]) > fabs(m[p][c])) p = r;
    if (p != c) {
      d = -d;
      for (int j = 0; j < N; j++) {
        double t = m[c][j];
        m[c][j] = m[p][j];
        m[p][j] = t;
      }
    }
    d *= m[c][c];
    for (int r = c + 1; r < N; r++) {
      double f = m[r][c] / m[c][c];
      for (int j = c; j < N; j++) m[r][j] -= f * m[c][j];
    }
  }
  return d;
}

int main(void) {
  fz_seed(1152);
  double full[N][N];
  double *A[N], *dA[N], *tA[N];
  for (int i = 0; i < N; i++) {
    A[i] = malloc(N * sizeof(double));
    dA[i] = calloc(N, sizeof(double));
    tA[i] = calloc(N, sizeof(double));
    for (int j = 0; j < N; j++) full[i][j] = A[i][j] = fz_uniform(-2, 2);
  }
  /* make row 0 small in column 0 so at least one swap happens */
  full[0][0] = A[0][0] = 0.01;
  double b[N], s[N], db[N] = {0}, tb[N];
  fz_fill(b, N, -1, 1);
  fz_fill(s, N, -1, 1);

  double inv[N][N], x[N], u[N];
  invert(full, inv);
  double det = det_of(full), f_want = det;
  for (int i = 0; i < N; i++) {
    x[i] = u[i] = 0;
    for (int j = 0; j < N; j++) x[i] += inv[i][j] * b[j], u[i] += inv[j][i] * s[j];
    f_want += s[i] * x[i];
  }
  fz_check("primal det + s^T x", lu_objective(A, b, s, N), f_want, 1e-11);

  __enzyme_autodiff((void *)lu_objective, enzyme_dup, A, dA, enzyme_dup, b, db,
                    enzyme_const, s, enzyme_const, N);
  char nm[64];
  double want_t = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      snprintf(nm, sizeof nm, "dA[%d][%d]", i, j);
      fz_check(nm, dA[i][j], det * inv[j][i] - u[i] * x[j], 1e-10);
      tA[i][j] = fz_uniform(-1, 1);
      want_t += tA[i][j] * dA[i][j];
    }
  fz_check_arr("db", db, u, N, 1e-10);
  for (int i = 0; i < N; i++) tb[i] = fz_uniform(-1, 1), want_t += tb[i] * db[i];
  double t = __enzyme_fwddiff((void *)lu_objective, enzyme_dup, A, tA, enzyme_dup, b, tb,
                              enzyme_const, s, enzyme_const, N);
  fz_check("forward tangent = <grad, v>", t, want_t, 1e-10);
  return fz_finish();
}
