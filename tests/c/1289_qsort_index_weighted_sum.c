// OPT: O0 O2
// qsort of an index array by the active keys, then a rank-weighted sum, as trimmed means
// and ordered-weighted averages are written in C: `int idx[]` sorted with a comparator
// reading the keys through a file-scope pointer (qsort has no context argument), then
// sum_k w_k * x[idx[k]] with rank weights, plus a trimmed mean dropping the extremes;
// the comparator also breaks ties by index. The permutation is piecewise constant, so
// the gradient is the weights scattered back through the sort.
// Oracle: the same sum with the ranks computed by counting (no qsort), its analytic
// gradient (w_rank(i) for x[i]), central differences, and the dot-product identity.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 9, TRIM = 2 };
static const double *g_keys;

static int by_key(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (g_keys[i] < g_keys[j]) return -1;
  if (g_keys[i] > g_keys[j]) return 1;
  return (i > j) - (i < j);
}

static double weight(int k) { return 1.0 + 0.25 * k; }

double owa(const double *x, int n) {
  int idx[N];
  for (int i = 0; i < n; i++) idx[i] = i;
  g_keys = x;
  qsort(idx, n, sizeof idx[0], by_key);
  double s = 0, trimmed = 0;
  for (int k = 0; k < n; k++) {
    double v = x[idx[k]];
    s += weight(k) * v * v;
    if (k >= TRIM && k < n - TRIM) trimmed += v;
  }
  return s + trimmed / (n - 2 * TRIM);
}

static int rank_of(const double *x, int i, int n) {
  int r = 0;
  for (int j = 0; j < n; j++) r += x[j] < x[i] || (x[j] == x[i] && j < i);
  return r;
}
static double X[N];
static double eval_ranks(void *c) {
  (void)c;
  double s = 0, tr = 0;
  for (int i = 0; i < N; i++) {
    int r = rank_of(X, i, N);
    s += weight(r) * X[i] * X[i];
    if (r >= TRIM && r < N - TRIM) tr += X[i];
  }
  return s + tr / (N - 2 * TRIM);
}

int main(void) {
  fz_seed(1289);
  fz_fill(X, N, -2, 2);
  fz_check("primal: qsort = ranks", owa(X, N), eval_ranks(0), 1e-13);
  double dx[N] = {0};
  __enzyme_autodiff((void *)owa, enzyme_dup, X, dx, enzyme_const, N);
  char nm[48];
  for (int i = 0; i < N; i++) {
    int r = rank_of(X, i, N);
    double want = 2 * weight(r) * X[i] + (r >= TRIM && r < N - TRIM ? 1.0 / (N - 2 * TRIM) : 0);
    snprintf(nm, sizeof nm, "d x[%d] (rank %d) analytic", i, r);
    fz_check(nm, dx[i], want, 1e-12);
    snprintf(nm, sizeof nm, "d x[%d] fd", i);
    fz_check(nm, dx[i], fz_fd_ptr(eval_ranks, 0, &X[i]), 1e-6);
  }
  fz_check("keys unchanged by the gradient", owa(X, N), eval_ranks(0), 1e-13);
  double vx[N];
  fz_fill(vx, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)owa, enzyme_dup, X, vx, enzyme_const, N);
  double vj = 0;
  for (int i = 0; i < N; i++) vj += vx[i] * dx[i];
  fz_check("<J v, 1> = <v, J^T 1>", jv, vj, 1e-12);
  return fz_finish();
}
