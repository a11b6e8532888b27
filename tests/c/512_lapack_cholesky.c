// OPT: O0 O2
// LLI: O0 O2
// ARGS: -lopenblas
// LAPACK's Cholesky factorization and solve (dpotrf_, dpotrs_, lower and upper, and the
// single-precision spotrf_) differentiated by rules made of BLAS calls (triangular
// solves and products). Oracles: the same factorization and substitutions written as
// loops (differentiated by Ferrozyme's core), finite differences, forward vs reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void dpotrf_(const char *, const int *, double *, const int *, int *);
extern void dpotrs_(const char *, const int *, const int *, const double *, const int *,
                    double *, const int *, int *);
extern void spotrf_(const char *, const int *, float *, const int *, int *);

#define N 4
#define R 2
#define LDA 5

static double W[LDA * R], V[LDA * LDA];

/* loss = sum V .* factor (referenced triangle) + sum W .* A^-1 B (column-major). */
double loss_lapack(const double *a0, const double *b0, int upper) {
  double a[LDA * LDA], b[LDA * R];
  for (int i = 0; i < LDA * LDA; i++) a[i] = a0[i];
  for (int i = 0; i < LDA * R; i++) b[i] = b0[i];
  int n = N, nrhs = R, lda = LDA, info = 0;
  const char *uplo = upper ? "U" : "L";
  dpotrf_(uplo, &n, a, &lda, &info);
  dpotrs_(uplo, &n, &nrhs, a, &lda, b, &lda, &info);
  double s = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      if (upper ? i <= j : i >= j) s += V[i + j * LDA] * a[i + j * LDA];
  for (int j = 0; j < R; j++)
    for (int i = 0; i < N; i++) s += W[i + j * LDA] * b[i + j * LDA];
  return s;
}

/* The same with loops: Cholesky-Banachiewicz on the referenced triangle, then forward and
 * back substitution. */
double loss_loops(const double *a0, const double *b0, int upper) {
  double l[N][N] = {{0}}, x[N][R];
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      double aij = upper ? a0[j + i * LDA] : a0[i + j * LDA];
      double s = aij;
      for (int k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      l[i][j] = i == j ? sqrt(s) : s / l[j][j];
    }
  for (int c = 0; c < R; c++) {
    double y[N];
    for (int i = 0; i < N; i++) {
      double s = b0[i + c * LDA];
      for (int k = 0; k < i; k++) s -= l[i][k] * y[k];
      y[i] = s / l[i][i];
    }
    for (int i = N - 1; i >= 0; i--) {
      double s = y[i];
      for (int k = i + 1; k < N; k++) s -= l[k][i] * x[k][c];
      x[i][c] = s / l[i][i];
    }
  }
  double s = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      if (!upper && i >= j) s += V[i + j * LDA] * l[i][j];
      if (upper && i <= j) s += V[i + j * LDA] * l[j][i];
    }
  for (int j = 0; j < R; j++)
    for (int i = 0; i < N; i++) s += W[i + j * LDA] * x[i][j];
  return s;
}

float loss_float(const float *a0) {
  float a[LDA * LDA];
  for (int i = 0; i < LDA * LDA; i++) a[i] = a0[i];
  int n = N, lda = LDA, info = 0;
  spotrf_("L", &n, a, &lda, &info);
  float s = 0;
  for (int i = 0; i < N; i++) s += a[i + i * LDA];
  return s;
}

static double A0[LDA * LDA], B0[LDA * R];
static int UP;
static double e_a(void *c) { (void)c; return loss_loops(A0, B0, UP); }

int main(void) {
  fz_seed(512);
  /* A = M M^T + N I, symmetric positive definite; both triangles filled. */
  double m[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) m[i][j] = fz_uniform(-1, 1);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = i == j ? N : 0;
      for (int k = 0; k < N; k++) s += m[i][k] * m[j][k];
      A0[i + j * LDA] = s;
    }
  fz_fill(B0, LDA * R, -1, 1);
  fz_fill(W, LDA * R, -1, 1);
  fz_fill(V, LDA * LDA, -1, 1);
  for (UP = 0; UP < 2; UP++) {
    fz_check(UP ? "primal (upper)" : "primal (lower)", loss_lapack(A0, B0, UP),
             loss_loops(A0, B0, UP), 1e-12);
    double da[LDA * LDA] = {0}, db[LDA * R] = {0}, la[LDA * LDA] = {0}, lb[LDA * R] = {0};
    __enzyme_autodiff((void *)loss_lapack, enzyme_dup, A0, da, enzyme_dup, B0, db,
                      enzyme_const, UP);
    __enzyme_autodiff((void *)loss_loops, enzyme_dup, A0, la, enzyme_dup, B0, lb,
                      enzyme_const, UP);
    fz_check_arr("reverse dA vs loops", da, la, LDA * LDA, 1e-11);
    fz_check_arr("reverse dB vs loops", db, lb, LDA * R, 1e-11);
    double fd[LDA * LDA];
    fz_fd_grad(e_a, NULL, A0, LDA * LDA, fd);
    fz_check_arr("reverse dA vs finite differences", da, fd, LDA * LDA, 1e-6);
    /* Forward along a symmetric direction of A and a direction of B. */
    double va[LDA * LDA] = {0}, vb[LDA * R];
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++) va[i + j * LDA] = va[j + i * LDA] = fz_uniform(-1, 1);
    fz_fill(vb, LDA * R, -1, 1);
    double t1 = __enzyme_fwddiff((void *)loss_lapack, enzyme_dup, A0, va, enzyme_dup, B0, vb,
                                 enzyme_const, UP);
    double t2 = __enzyme_fwddiff((void *)loss_loops, enzyme_dup, A0, va, enzyme_dup, B0, vb,
                                 enzyme_const, UP);
    fz_check("forward vs loops", t1, t2, 1e-11);
    double ip = 0;
    for (int i = 0; i < LDA * LDA; i++) ip += va[i] * la[i];
    for (int i = 0; i < LDA * R; i++) ip += vb[i] * lb[i];
    fz_check("dot-product identity", t1, ip, 1e-11);
  }
  /* spotrf_: d(trace L)/dA against the double-precision loops. */
  float af[LDA * LDA], daf[LDA * LDA] = {0};
  for (int i = 0; i < LDA * LDA; i++) af[i] = (float)A0[i];
  __enzyme_autodiff((void *)loss_float, enzyme_dup, af, daf);
  for (int j = 0; j < N; j++)
    for (int i = j; i < N; i++) {
      /* d(sum_i L_ii)/dA_ij by central differences of the double loops version. */
      double h = 1e-6, save = A0[i + j * LDA];
      double w[LDA * LDA];
      for (int k = 0; k < LDA * LDA; k++) V[k] = 0, W[k % (LDA * R)] = 0;
      for (int k = 0; k < N; k++) V[k + k * LDA] = 1;
      for (int k = 0; k < LDA * LDA; k++) w[k] = A0[k];
      w[i + j * LDA] = save + h;
      double fp = loss_loops(w, B0, 0);
      w[i + j * LDA] = save - h;
      double fm = loss_loops(w, B0, 0);
      fz_check("spotrf_ reverse vs finite differences", daf[i + j * LDA], (fp - fm) / (2 * h),
               2e-4);
    }
  return fz_finish();
}
