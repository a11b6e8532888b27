// OPT: O0 O1 O2 O3
// Least squares by Householder QR on a tall row-major double ** matrix (m x n, rows
// malloc'd), the reflector's sign chosen with copysign as LAPACK does, R x = Q^T b solved
// by back substitution; the objective is c^T x for a fixed c. The function works on
// copies (memcpy of each active row into scratch rows) and frees them.
// Oracle: analytic, with w = (A^T A)^-1 c, r = b - A x: d/dA = r w^T - (A w) x^T,
// d/db = A w (normal equations solved in main by Gaussian elimination), plus central
// finite differences for two entries and forward mode against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { M = 7, N = 3 };

double ls_objective(double **A, const double *b, const double *c, int m, int n) {
  double **R = malloc(m * sizeof(double *));
  for (int i = 0; i < m; i++) {
    R[i] = malloc(n * sizeof(double));
    memcpy(R[i], A[i], n * sizeof(double));
  }
  double *qb = malloc(m * sizeof(double));
  memcpy(qb, b, m * sizeof(double));
  double *v = malloc(m * sizeof(double));
  for (int k = 0; k < n; k++) {
    double norm2 = 0.0;
    for (int i = k; i < m; i++) norm2 += R[i][k] * R[i][k];
    double alpha = -copysign(sqrt(norm2), R[k][k]);
    for (int i = k; i < m; i++) v[i] = R[i][k];
    v[k] -= alpha;
    double vv = 0.0;
    for (int i = k; i < m; i++) vv += v[i] * v[i];
    for (int j = k; j < n; j++) {
      double s = 0.0;
      for (int i = k; i < m; i++) s += v[i] * R[i][j];
      s = 2.0 * s / vv;
      for (int i = k; i < m; i++) R[i][j] -= s * v[i];
    }
    double s = 0.0;
    for (int i = k; i < m; i++) s += v[i] * qb[i];
    s = 2.0 * s / vv;
    for (int i = k; i < m; i++) qb[i] -= s * v[i];
  }
  double *x = malloc(n * sizeof(double));
  for (int i = n - 1; i >= 0; i--) {
    double t = qb[i];
    for (int j = i + 1; j < n; j++) t -= R[i][j] * x[j];
    x[i] = t / R[i][i];
  }
  double f = 0.0;
  for (int i = 0; i < n; i++) f += c[i] * x[i];
  free(x);
  free(v);
  free(qb);
  for (int i = 0; i < m; i++) free(R[i]);
  free(R);
  return f;
}

static void solve_small(double a[N][N], const double *rhs, double *out) {
  double m[N][N + 1];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) m[i][j] = a[i][j];
    m[i][N] = rhs[i];
  }
  for (int c = 0; c < N; c++)
    for (int r = c + 1; r < N; r++) {
      double f = m[r][c] / m[c][c];
      for (int j = c; j <= N; j++) m[r][j] -= f * m[c][j];
    }
  for (int i = N - 1; i >= 0; i--) {
    double t = m[i][N];
    for (int j = i + 1; j < N; j++) t -= m[i][j] * out[j];
    out[i] = t / m[i][i];
  }
}

static double *gA[M], gb[M], gc[N];
static double eval(void *ctx) {
  (void)ctx;
  return ls_objective(gA, gb, gc, M, N);
}

int main(void) {
  fz_seed(1151);
  double *dA[M], *tA[M];
  for (int i = 0; i < M; i++) {
    gA[i] = malloc(N * sizeof(double));
    dA[i] = calloc(N, sizeof(double));
    tA[i] = calloc(N, sizeof(double));
    fz_fill(gA[i], N, -1, 1);
    gA[i][i % N] += 2.0;
  }
  fz_fill(gb, M, -1, 1);
  fz_fill(gc, N, -1, 1);
  double db[M] = {0};

  double ata[N][N], atb[N], x[N], w[N], r[M], aw[M];
  for (int i = 0; i < N; i++) {
    atb[i] = 0;
    for (int k = 0; k < M; k++) atb[i] += gA[k][i] * gb[k];
    for (int j = 0; j < N; j++) {
      ata[i][j] = 0;
      for (int k = 0; k < M; k++) ata[i][j] += gA[k][i] * gA[k][j];
    }
  }
  solve_small(ata, atb, x);
  solve_small(ata, gc, w);
  double f_want = 0;
  for (int i = 0; i < N; i++) f_want += gc[i] * x[i];
  for (int k = 0; k < M; k++) {
    r[k] = gb[k];
    aw[k] = 0;
    for (int j = 0; j < N; j++) r[k] -= gA[k][j] * x[j], aw[k] += gA[k][j] * w[j];
  }
  fz_check("primal c^T x", eval(NULL), f_want, 1e-11);

  __enzyme_autodiff((void *)ls_objective, enzyme_dup, gA, dA, enzyme_dup, gb, db,
                    enzyme_const, gc, enzyme_const, M, enzyme_const, N);
  char nm[64];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      snprintf(nm, sizeof nm, "dA[%d][%d]", i, j);
      fz_check(nm, dA[i][j], r[i] * w[j] - aw[i] * x[j], 1e-10);
    }
  fz_check_arr("db", db, aw, M, 1e-10);
  fz_check("dA[0][0] vs FD", dA[0][0], fz_fd_ptr(eval, NULL, &gA[0][0]), 1e-6);
  fz_check("dA[5][2] vs FD", dA[5][2], fz_fd_ptr(eval, NULL, &gA[5][2]), 1e-6);

  double tb[M], want = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) tA[i][j] = fz_uniform(-1, 1), want += tA[i][j] * dA[i][j];
  for (int i = 0; i < M; i++) tb[i] = fz_uniform(-1, 1), want += tb[i] * db[i];
  double t = __enzyme_fwddiff((void *)ls_objective, enzyme_dup, gA, tA, enzyme_dup, gb, tb,
                              enzyme_const, gc, enzyme_const, M, enzyme_const, N);
  fz_check("forward tangent = <grad, v>", t, want, 1e-10);
  return fz_finish();
}
