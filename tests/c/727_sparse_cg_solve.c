// OPT: O0 O1 O2 O3
// A sparse linear solve as a user writes it: a CSR matrix (int row pointers and column
// indices `enzyme_const`, active values), conjugate gradient for a fixed number of
// iterations with scratch vectors from `malloc`, an early exit when the residual is tiny
// (never taken here), and a quadratic objective of the solution. Differentiated with
// respect to the matrix values and the right-hand side. Oracles: finite differences of
// the primal, and for the right-hand side the adjoint solve (A is symmetric: dJ/db = A^-1
// dJ/dx, computed by the same CG run to convergence).
#include "fz_test.h"

#define N 6

static void spmv(int n, const int *rp, const int *ci, const double *v, const double *x,
                 double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = rp[i]; k < rp[i + 1]; k++) s += v[k] * x[ci[k]];
    y[i] = s;
  }
}

static double dotp(int n, const double *a, const double *b) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

void cg(int n, const int *rp, const int *ci, const double *v, const double *b, double *x,
        int iters) {
  double *r = malloc(n * sizeof(double)), *p = malloc(n * sizeof(double));
  double *ap = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { x[i] = 0.0; r[i] = b[i]; p[i] = b[i]; }
  double rr = dotp(n, r, r);
  for (int it = 0; it < iters; it++) {
    if (rr < 1e-300) break;
    spmv(n, rp, ci, v, p, ap);
    double alpha = rr / dotp(n, p, ap);
    for (int i = 0; i < n; i++) { x[i] += alpha * p[i]; r[i] -= alpha * ap[i]; }
    double rr2 = dotp(n, r, r);
    double beta = rr2 / rr;
    rr = rr2;
    for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
  }
  free(r); free(p); free(ap);
}

double objective(int n, const int *rp, const int *ci, const double *v, const double *b,
                 int iters) {
  double x[N];
  cg(n, rp, ci, v, b, x, iters);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i] * x[i];
  return s;
}

static int RP[N + 1], CI[3 * N];
static double V[3 * N], Bv[N];
static double eval(void *ctx) { return objective(N, RP, CI, V, Bv, *(int *)ctx); }

int main(void) {
  /* tridiagonal SPD: 4 on the diagonal, -1 + small perturbation symmetric off-diagonal */
  int nnz = 0;
  double off[N];
  fz_seed(727);
  for (int i = 0; i < N; i++) off[i] = -1.0 + fz_uniform(-0.2, 0.2);
  for (int i = 0; i < N; i++) {
    RP[i] = nnz;
    if (i > 0) { CI[nnz] = i - 1; V[nnz++] = off[i - 1]; }
    CI[nnz] = i; V[nnz++] = 4.0 + 0.1 * i;
    if (i < N - 1) { CI[nnz] = i + 1; V[nnz++] = off[i]; }
  }
  RP[N] = nnz;
  fz_fill(Bv, N, -1, 1);
  for (int iters = 3; iters <= N; iters += 3) { /* partial and full CG */
    double dv[3 * N] = {0}, db[N] = {0};
    __enzyme_autodiff((void *)objective, enzyme_const, N, enzyme_const, RP, enzyme_const, CI,
                      enzyme_dup, V, dv, enzyme_dup, Bv, db, enzyme_const, iters);
    double fdv[3 * N], fdb[N];
    fz_fd_grad(eval, &iters, V, nnz, fdv);
    fz_fd_grad(eval, &iters, Bv, N, fdb);
    fz_check_arr(iters == N ? "dvalues fd (full)" : "dvalues fd (partial)", dv, fdv, nnz, 1e-6);
    fz_check_arr(iters == N ? "db fd (full)" : "db fd (partial)", db, fdb, N, 1e-6);
    if (iters == N) { /* adjoint solve: db = A^-1 (2 diag(i+1) x) */
      double x[N], g[N], lam[N];
      cg(N, RP, CI, V, Bv, x, 4 * N);
      for (int i = 0; i < N; i++) g[i] = 2.0 * (i + 1) * x[i];
      cg(N, RP, CI, V, g, lam, 4 * N);
      fz_check_arr("db adjoint solve", db, lam, N, 1e-7);
    }
  }
  return fz_finish();
}
