// OPT: O0 O1 O2 O3
// Lookups and sparse kernels with constant integer structure: `bsearch` over a `static
// const` table of breakpoints (with a comparator) chooses the segment of a piecewise
// linear interpolant whose knot values are active, and a CSR matrix (const row_ptr and
// col_idx, active values) times an active vector, then a quadratic form of the result.
// Derivatives flow to the knot values, to the query points, to the CSR values and to the
// vector; none to the index arrays. Oracle: analytic (piecewise slopes, A^T and the
// value pattern) and central differences.
#include "fz_test.h"

static const double knots[] = {0.0, 0.5, 1.25, 2.0, 3.5, 5.0};
enum { K = 6, Q = 4, R = 4, NNZ = 9 };

static int cmp_seg(const void *key, const void *elem) {
  double x = *(const double *)key;
  const double *k = (const double *)elem;
  if (x < k[0]) return -1;
  if (x >= k[1]) return 1;
  return 0;
}

double interp_sum(const double *vals, const double *xq, int nq) {
  double s = 0;
  for (int q = 0; q < nq; q++) {
    const double *seg = bsearch(&xq[q], knots, K - 1, sizeof(double), cmp_seg);
    int i = seg ? (int)(seg - knots) : 0;
    double t = (xq[q] - knots[i]) / (knots[i + 1] - knots[i]);
    double y = (1 - t) * vals[i] + t * vals[i + 1];
    s += y * y;
  }
  return s;
}

static const int row_ptr[R + 1] = {0, 2, 4, 7, 9};
static const int col_idx[NNZ] = {0, 2, 1, 3, 0, 2, 3, 1, 3};

double csr_quad(const double *val, const int *rp, const int *ci, const double *x, int nr) {
  double f = 0;
  for (int r = 0; r < nr; r++) {
    double y = 0;
    for (int k = rp[r]; k < rp[r + 1]; k++) y += val[k] * x[ci[k]];
    f += (r + 1) * y * y;
  }
  return f;
}

static double g_vals[K], g_xq[Q] = {0.2, 1.3, 2.9, 4.4};
static double eval_interp(void *c) {
  (void)c;
  return interp_sum(g_vals, g_xq, Q);
}
static double g_val[NNZ], g_x[R];
static double eval_csr(void *c) {
  (void)c;
  return csr_quad(g_val, row_ptr, col_idx, g_x, R);
}

int main(void) {
  fz_seed(56);
  fz_fill(g_vals, K, -1, 2);
  double dvals[K] = {0}, dxq[Q] = {0};
  __enzyme_autodiff((void *)interp_sum, enzyme_dup, g_vals, dvals, enzyme_dup, g_xq, dxq,
                    enzyme_const, Q);
  char nm[48];
  for (int i = 0; i < K; i++) {
    snprintf(nm, sizeof nm, "d knot value %d", i);
    fz_check(nm, dvals[i], fz_fd_ptr(eval_interp, NULL, &g_vals[i]), 1e-6);
  }
  for (int q = 0; q < Q; q++) {
    const double *seg = bsearch(&g_xq[q], knots, K - 1, sizeof(double), cmp_seg);
    int i = (int)(seg - knots);
    double t = (g_xq[q] - knots[i]) / (knots[i + 1] - knots[i]);
    double y = (1 - t) * g_vals[i] + t * g_vals[i + 1];
    double slope = (g_vals[i + 1] - g_vals[i]) / (knots[i + 1] - knots[i]);
    snprintf(nm, sizeof nm, "d query %d", q);
    fz_check(nm, dxq[q], 2 * y * slope, 1e-12);
  }
  fz_fill(g_val, NNZ, -1, 1);
  fz_fill(g_x, R, -1, 1);
  double dval[NNZ] = {0}, dx[R] = {0};
  __enzyme_autodiff((void *)csr_quad, enzyme_dup, g_val, dval, enzyme_const, row_ptr,
                    enzyme_const, col_idx, enzyme_dup, g_x, dx, enzyme_const, R);
  double y[R];
  for (int r = 0; r < R; r++) {
    y[r] = 0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++) y[r] += g_val[k] * g_x[col_idx[k]];
  }
  double want_dx[R] = {0};
  for (int r = 0; r < R; r++)
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
      snprintf(nm, sizeof nm, "d val[%d]", k);
      fz_check(nm, dval[k], 2 * (r + 1) * y[r] * g_x[col_idx[k]], 1e-12);
      want_dx[col_idx[k]] += 2 * (r + 1) * y[r] * g_val[k];
    }
  for (int j = 0; j < R; j++) {
    snprintf(nm, sizeof nm, "d x[%d]", j);
    fz_check(nm, dx[j], want_dx[j], 1e-12);
    fz_check("d x fd", dx[j], fz_fd_ptr(eval_csr, NULL, &g_x[j]), 1e-6);
  }
  return fz_finish();
}
