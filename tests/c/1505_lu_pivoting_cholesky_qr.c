// OPT: O0 O1 O2 O3
// probe43: linear algebra by hand on 4x4 matrices: LU with partial pivoting (argmax of
// fabs, rows swapped by memcpy through `double a[N][N]`, the right-hand side and an int
// permutation swapped with them) and back substitution; Cholesky of A A^T + 4I with the
// log-determinant and two triangular solves; modified Gram-Schmidt QR. Reverse against
// central differences, forward against <gradient, v>. Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
/* LU with partial pivoting (argmax of fabs, row swaps), solve; Cholesky; MGS QR; triangular solves */
#define N 4
static void lu_solve(double a[N][N], double *b) {
  int piv[N];
  for (int i = 0; i < N; i++) piv[i] = i;
  for (int k = 0; k < N; k++) {
    int p = k; double best = fabs(a[k][k]);
    for (int i = k + 1; i < N; i++) if (fabs(a[i][k]) > best) { best = fabs(a[i][k]); p = i; }
    if (p != k) {
      double t[N]; memcpy(t, a[k], sizeof t); memcpy(a[k], a[p], sizeof t); memcpy(a[p], t, sizeof t);
      double tb = b[k]; b[k] = b[p]; b[p] = tb; int ti = piv[k]; piv[k] = piv[p]; piv[p] = ti;
    }
    for (int i = k + 1; i < N; i++) {
      double l = a[i][k] / a[k][k]; a[i][k] = l;
      for (int j = k + 1; j < N; j++) a[i][j] -= l * a[k][j];
      b[i] -= l * b[k];
    }
  }
  for (int i = N - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < N; j++) s -= a[i][j] * b[j];
    b[i] = s / a[i][i];
  }
}
double lu_obj(const double *x, int n) { /* x: 16 matrix + 4 rhs */
  (void)n; double a[N][N], b[N];
  memcpy(a, x, sizeof a); memcpy(b, x + 16, sizeof b);
  lu_solve(a, b);
  double s = 0; for (int i = 0; i < N; i++) s += (i + 1) * b[i] * b[i];
  return s;
}
double chol_obj(const double *x, int n) { /* SPD M = A A^T + 4I; log det + x^T M^-1 c */
  (void)n; double m[N][N], l[N][N] = {{0}}, y[N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
    double s = i == j ? 4.0 : 0.0;
    for (int k = 0; k < N; k++) s += x[i*N+k] * x[j*N+k];
    m[i][j] = s;
  }
  for (int j = 0; j < N; j++) {
    double d = m[j][j];
    for (int k = 0; k < j; k++) d -= l[j][k] * l[j][k];
    l[j][j] = sqrt(d);
    for (int i = j + 1; i < N; i++) {
      double s = m[i][j];
      for (int k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      l[i][j] = s / l[j][j];
    }
  }
  double ld = 0; for (int i = 0; i < N; i++) ld += 2 * log(l[i][i]);
  for (int i = 0; i < N; i++) { double s = x[16 + i]; for (int k = 0; k < i; k++) s -= l[i][k] * y[k]; y[i] = s / l[i][i]; }
  for (int i = N - 1; i >= 0; i--) { double s = y[i]; for (int k = i + 1; k < N; k++) s -= l[k][i] * y[k]; y[i] = s / l[i][i]; }
  double q = 0; for (int i = 0; i < N; i++) q += x[16 + i] * y[i];
  return ld + q;
}
double qr_obj(const double *x, int n) { /* modified Gram-Schmidt, sum of |R| diag logs + Q entries */
  (void)n; double q[N][N], r[N][N] = {{0}};
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) q[i][j] = x[i*N+j];
  for (int j = 0; j < N; j++) {
    double nn = 0; for (int i = 0; i < N; i++) nn += q[i][j] * q[i][j];
    r[j][j] = sqrt(nn);
    for (int i = 0; i < N; i++) q[i][j] /= r[j][j];
    for (int k = j + 1; k < N; k++) {
      double d = 0; for (int i = 0; i < N; i++) d += q[i][j] * q[i][k];
      r[j][k] = d;
      for (int i = 0; i < N; i++) q[i][k] -= d * q[i][j];
    }
  }
  double s = 0; for (int j = 0; j < N; j++) s += log(r[j][j]) + q[j][0] * x[16 + j] + r[0][j] * q[1][j];
  return s;
}
int main(void) {
  double x[20]; fz_seed(11); fz_fill(x, 20, -1, 1);
  x[0] = 0.01; /* forces a pivot at step 0 */
  FZ_CHECK_GRAD("lu", lu_obj, x, 20, 1e-5);
  FZ_CHECK_GRAD("chol", chol_obj, x, 20, 1e-6);
  FZ_CHECK_GRAD("qr", qr_obj, x, 20, 1e-5);
  return fz_finish();
}
