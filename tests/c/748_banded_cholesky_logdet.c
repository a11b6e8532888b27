// OPT: O0 O1 O2 O3
// A Gaussian-process style objective on a symmetric positive definite band matrix
// stored in LAPACK's lower band layout (`ab[(i - j) + j * ldab]`): an in-place band
// Cholesky on a `malloc`ed copy, a forward and a back substitution, and
// f(A) = 0.5 b^T A^-1 b + sum log L_ii (= 0.5 log det A). Oracle: the analytic gradient
// df/dA_ij = -0.5 (A^-1 b)_i (A^-1 b)_j + 0.5 (A^-1)_ij (for the band entries, i >= j,
// counting both triangles off the diagonal), computed from a dense Gauss-Jordan inverse,
// and finite differences.
#include "fz_test.h"

#define N 7
#define KD 2
#define LDAB (KD + 1)

double gp_objective(const double *ab, const double *b, int n, int kd) {
  int ld = kd + 1;
  double *l = (double *)malloc(sizeof(double) * ld * n);
  memcpy(l, ab, sizeof(double) * ld * n);
  for (int j = 0; j < n; j++) {
    double d = l[j * ld];
    for (int k = (j - kd > 0 ? j - kd : 0); k < j; k++) d -= l[(j - k) + k * ld] * l[(j - k) + k * ld];
    d = sqrt(d);
    l[j * ld] = d;
    for (int i = j + 1; i <= j + kd && i < n; i++) {
      double s = l[(i - j) + j * ld];
      for (int k = (i - kd > 0 ? i - kd : 0); k < j; k++) s -= l[(i - k) + k * ld] * l[(j - k) + k * ld];
      l[(i - j) + j * ld] = s / d;
    }
  }
  double *z = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    double s = b[i];
    for (int k = (i - kd > 0 ? i - kd : 0); k < i; k++) s -= l[(i - k) + k * ld] * z[k];
    z[i] = s / l[i * ld];
  }
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; i++) quad += z[i] * z[i], logdet += log(l[i * ld]);
  free(z);
  free(l);
  return 0.5 * quad + logdet;
}

static double AB[LDAB * N], B[N];
static double eval(void *ctx) { (void)ctx; return gp_objective(AB, B, N, KD); }

static void dense_inverse(double a[N][N], double inv[N][N]) {
  double m[N][2 * N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 2 * N; j++) m[i][j] = j < N ? a[i][j] : (j - N == i);
  for (int c = 0; c < N; c++) {
    double p = m[c][c];
    for (int j = 0; j < 2 * N; j++) m[c][j] /= p;
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
  fz_seed(748);
  double A[N][N] = {{0}};
  for (int j = 0; j < N; j++)
    for (int i = j; i <= j + KD && i < N; i++) {
      double v = i == j ? 4.0 + fz_uniform(0, 1) : fz_uniform(-0.8, 0.8);
      AB[(i - j) + j * LDAB] = v;
      A[i][j] = A[j][i] = v;
    }
  fz_fill(B, N, -1, 1);
  double dAB[LDAB * N] = {0}, dB[N] = {0};
  __enzyme_autodiff((void *)gp_objective, enzyme_dup, AB, dAB, enzyme_dup, B, dB, enzyme_const,
                    N, enzyme_const, KD);
  double inv[N][N], alpha[N];
  dense_inverse(A, inv);
  for (int i = 0; i < N; i++) {
    alpha[i] = 0;
    for (int j = 0; j < N; j++) alpha[i] += inv[i][j] * B[j];
  }
  /* the band layout's unused corner entries (i >= n) stay zero */
  double want[LDAB * N] = {0};
  for (int j = 0; j < N; j++)
    for (int i = j; i <= j + KD && i < N; i++) {
      double g = -0.5 * alpha[i] * alpha[j] + 0.5 * inv[i][j];
      want[(i - j) + j * LDAB] = i == j ? g : 2.0 * g;
    }
  fz_check_arr("df/dab (analytic)", dAB, want, LDAB * N, 1e-9);
  fz_check_arr("df/db (= A^-1 b)", dB, alpha, N, 1e-9);
  double fd[LDAB * N];
  for (int j = 0; j < N; j++)
    for (int i = j; i <= j + KD; i++)
      fd[(i - j) + j * LDAB] = i < N ? fz_fd_ptr(eval, NULL, &AB[(i - j) + j * LDAB]) : 0.0;
  fz_check_arr("df/dab (fd)", dAB, fd, LDAB * N, 1e-6);
  return fz_finish();
}
