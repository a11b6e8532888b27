// OPT: O0 O1 O2 O3
// ARGS: -lopenblas
// BLAS calls a numerical C user writes beyond dot/axpy/scal/gemv/gemm: `cblas_dcopy` of a
// matrix into scratch and of a vector into a stride-2 buffer, `cblas_dger` rank-one
// updates in row-major (with an active alpha) and column-major layout, followed by
// `cblas_dgemv` products (no transpose and transpose). Reverse mode (alpha `enzyme_out`)
// and forward mode along a random direction. Oracle: central finite differences of the
// same program, and the dot-product identity between the modes.
#include <cblas.h>
#include "fz_test.h"
#include "fz_modes.h"

#define N 4

double objective(const double *A, const double *x, const double *a, const double *b,
                 const double *S, double alpha) {
  double M[N * N], P[N * N], y[N], t[N], u[2 * N];
  cblas_dcopy(N * N, A, 1, M, 1);
  cblas_dger(CblasRowMajor, N, N, alpha, a, 1, b, 1, M, N); /* M = A + alpha a b^T */
  cblas_dgemv(CblasRowMajor, CblasNoTrans, N, N, 1.0, M, N, x, 1, 0.0, y, 1);
  cblas_dcopy(N * N, S, 1, P, 1);
  cblas_dger(CblasColMajor, N, N, 0.5, b, 1, a, 1, P, N); /* P = S + 0.5 b a^T (col-major) */
  cblas_dgemv(CblasColMajor, CblasTrans, N, N, 1.0, P, N, x, 1, 0.0, t, 1);
  for (int i = 0; i < 2 * N; i++) u[i] = 0.0;
  cblas_dcopy(N, y, 1, u, 2);
  double f = 0;
  for (int i = 0; i < N; i++) f += y[i] * y[i] * 0.1 + x[i] * t[i] + (i + 1) * u[2 * i] * u[2 * i];
  return f;
}

static double A[N * N], X[N], Av[N], Bv[N], S[N * N], ALPHA = 0.7;
static double eval(void *c) { (void)c; return objective(A, X, Av, Bv, S, ALPHA); }

int main(void) {
  fz_seed(797);
  fz_fill(A, N * N, -1, 1);
  fz_fill(X, N, -1, 1);
  fz_fill(Av, N, -1, 1);
  fz_fill(Bv, N, -1, 1);
  fz_fill(S, N * N, -1, 1);
  double dA[N * N] = {0}, dX[N] = {0}, da[N] = {0}, db[N] = {0}, dS[N * N] = {0};
  double dalpha = __enzyme_autodiff((void *)objective, enzyme_dup, A, dA, enzyme_dup, X, dX,
                                    enzyme_dup, Av, da, enzyme_dup, Bv, db, enzyme_dup, S, dS,
                                    enzyme_out, ALPHA);
  char buf[32];
  for (int i = 0; i < N * N; i++) {
    snprintf(buf, sizeof buf, "dA[%d]", i);
    fz_check(buf, dA[i], fz_fd_ptr(eval, NULL, &A[i]), 1e-6);
    snprintf(buf, sizeof buf, "dS[%d]", i);
    fz_check(buf, dS[i], fz_fd_ptr(eval, NULL, &S[i]), 1e-6);
  }
  for (int i = 0; i < N; i++) {
    snprintf(buf, sizeof buf, "dx[%d]", i);
    fz_check(buf, dX[i], fz_fd_ptr(eval, NULL, &X[i]), 1e-6);
    snprintf(buf, sizeof buf, "da[%d]", i);
    fz_check(buf, da[i], fz_fd_ptr(eval, NULL, &Av[i]), 1e-6);
    snprintf(buf, sizeof buf, "db[%d]", i);
    fz_check(buf, db[i], fz_fd_ptr(eval, NULL, &Bv[i]), 1e-6);
  }
  fz_check("dalpha", dalpha, fz_fd_ptr(eval, NULL, &ALPHA), 1e-6);

  /* forward mode along random tangents: <J v> == <grad, v> */
  double vA[N * N], vX[N], va[N], vb[N], vS[N * N], valpha = -0.3;
  fz_fill(vA, N * N, -1, 1);
  fz_fill(vX, N, -1, 1);
  fz_fill(va, N, -1, 1);
  fz_fill(vb, N, -1, 1);
  fz_fill(vS, N * N, -1, 1);
  double jv = __enzyme_fwddiff((void *)objective, enzyme_dup, A, vA, enzyme_dup, X, vX,
                               enzyme_dup, Av, va, enzyme_dup, Bv, vb, enzyme_dup, S, vS, ALPHA,
                               valpha);
  double want = dalpha * valpha;
  for (int i = 0; i < N * N; i++) want += dA[i] * vA[i] + dS[i] * vS[i];
  for (int i = 0; i < N; i++) want += dX[i] * vX[i] + da[i] * va[i] + db[i] * vb[i];
  fz_check("forward . v == grad . v", jv, want, 1e-10);
  return fz_finish();
}
