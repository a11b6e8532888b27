// OPT: O0 O1 O2 O3
// Sparse matrices in CSR form (row_ptr / col_idx integer arrays, enzyme_const) times
// dense vectors: y = A x by rows (a gather through col_idx), z = A^T u by a scatter
// z[col_idx[k]] += val[k] u[i], and a Jacobi sweep that skips the diagonal entry by an
// index test; the objective is a weighted sum of squares. Values and vectors are
// enzyme_dup (a gradient for every stored nonzero).
// Oracle: analytic (the dense matrix rebuilt in main), forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 6, NNZ_MAX = 36 };

double csr_objective(const int *row_ptr, const int *col_idx, const double *val,
                     const double *x, const double *u, int n, double *work) {
  double f = 0.0;
  for (int i = 0; i < n; i++) {
    double yi = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) yi += val[k] * x[col_idx[k]];
    f += (i + 1) * yi * yi;
  }
  for (int j = 0; j < n; j++) work[j] = 0.0;
  for (int i = 0; i < n; i++)
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) work[col_idx[k]] += val[k] * u[i];
  for (int j = 0; j < n; j++) f += 0.5 * work[j] * work[j];
  /* one Jacobi sweep for A w = u from w = x */
  for (int i = 0; i < n; i++) {
    double s = u[i], d = 1.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
      if (col_idx[k] == i) d = val[k];
      else s -= val[k] * x[col_idx[k]];
    }
    f += s / d;
  }
  return f;
}

int main(void) {
  fz_seed(1156);
  int row_ptr[N + 1], col_idx[NNZ_MAX];
  double val[NNZ_MAX], dense[N][N] = {{0}};
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    row_ptr[i] = nnz;
    for (int j = 0; j < N; j++) {
      if (i == j || (i + 2 * j) % 3 == 0) {
        col_idx[nnz] = j;
        val[nnz] = (i == j) ? 3.0 + fz_uniform(0, 1) : fz_uniform(-1, 1);
        dense[i][j] = val[nnz];
        nnz++;
      }
    }
  }
  row_ptr[N] = nnz;
  double x[N], u[N], work[N], dval[NNZ_MAX] = {0}, dx[N] = {0}, du[N] = {0}, dwork[N] = {0};
  fz_fill(x, N, -1, 1);
  fz_fill(u, N, -1, 1);

  double y[N], z[N], diag[N], s[N];
  for (int i = 0; i < N; i++) {
    y[i] = z[i] = 0;
    for (int j = 0; j < N; j++) y[i] += dense[i][j] * x[j], z[i] += dense[j][i] * u[j];
  }
  for (int i = 0; i < N; i++) {
    diag[i] = dense[i][i];
    s[i] = u[i];
    for (int j = 0; j < N; j++)
      if (j != i) s[i] -= dense[i][j] * x[j];
  }
  double f = 0;
  for (int i = 0; i < N; i++) f += (i + 1) * y[i] * y[i] + 0.5 * z[i] * z[i] + s[i] / diag[i];
  fz_check("primal", csr_objective(row_ptr, col_idx, val, x, u, N, work), f, 1e-12);

  __enzyme_autodiff((void *)csr_objective, enzyme_const, row_ptr, enzyme_const, col_idx,
                    enzyme_dup, val, dval, enzyme_dup, x, dx, enzyme_dup, u, du,
                    enzyme_const, N, enzyme_dup, work, dwork);
  double wval[NNZ_MAX], wx[N], wu[N];
  for (int j = 0; j < N; j++) {
    wx[j] = 0;
    for (int i = 0; i < N; i++) {
      wx[j] += 2 * (i + 1) * y[i] * dense[i][j];
      if (i != j) wx[j] -= dense[i][j] / diag[i];
    }
  }
  for (int i = 0; i < N; i++) {
    wu[i] = 1.0 / diag[i];
    for (int j = 0; j < N; j++) wu[i] += dense[i][j] * z[j];
  }
  for (int i = 0; i < N; i++)
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
      int j = col_idx[k];
      wval[k] = 2 * (i + 1) * y[i] * x[j] + z[j] * u[i];
      wval[k] += (j == i) ? -s[i] / (diag[i] * diag[i]) : -x[j] / diag[i];
    }
  fz_check_arr("dval", dval, wval, nnz, 1e-11);
  fz_check_arr("dx", dx, wx, N, 1e-11);
  fz_check_arr("du", du, wu, N, 1e-11);

  double tval[NNZ_MAX], tx[N], tu[N], twork[N], want = 0;
  for (int k = 0; k < nnz; k++) tval[k] = fz_uniform(-1, 1), want += tval[k] * wval[k];
  for (int i = 0; i < N; i++) {
    tx[i] = fz_uniform(-1, 1);
    tu[i] = fz_uniform(-1, 1);
    want += tx[i] * wx[i] + tu[i] * wu[i];
    twork[i] = 0;
  }
  double t = __enzyme_fwddiff((void *)csr_objective, enzyme_const, row_ptr, enzyme_const,
                              col_idx, enzyme_dup, val, tval, enzyme_dup, x, tx, enzyme_dup,
                              u, tu, enzyme_const, N, enzyme_dup, work, twork);
  fz_check("forward = <grad, v>", t, want, 1e-11);
  return fz_finish();
}
