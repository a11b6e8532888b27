// OPT: O0 O1 O2 O3
// 2D indexing with a leading dimension larger than the row length (padding
// must get zero gradient): f = sum_{i,j<n} A[i][j]*A[j][i] + sum_i A[i][i]^3,
// plus a strided 1-D access x[2*i].
#include "fz_test.h"

#define N 6
#define LD 9

double f(const double *A, int n, int ld) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += A[i * ld + j] * A[j * ld + i];
  for (int i = 0; i < n; i++) s += A[i * ld + i] * A[i * ld + i] * A[i * ld + i];
  return s;
}

double strided(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[2 * i] * x[2 * i + 1] * (double)(i + 1);
  return s;
}

int main(void) {
  fz_seed(22);
  double A[N * LD], dA[N * LD], want[N * LD];
  fz_fill(A, N * LD, -1, 1);
  fz_zero(dA, N * LD);
  __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_const, N, enzyme_const, LD);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < LD; j++) {
      double g = 0.0;
      if (j < N) g = 2.0 * A[j * LD + i];
      if (i == j) g += 3.0 * A[i * LD + i] * A[i * LD + i];
      want[i * LD + j] = g;
    }
  fz_check_arr("dA", dA, want, N * LD, 1e-10);

  double x[2 * N], dx[2 * N], wx[2 * N];
  fz_fill(x, 2 * N, -1, 1);
  fz_zero(dx, 2 * N);
  __enzyme_autodiff((void *)strided, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    wx[2 * i] = x[2 * i + 1] * (i + 1);
    wx[2 * i + 1] = x[2 * i] * (i + 1);
  }
  fz_check_arr("dx strided", dx, wx, 2 * N, 1e-10);
  return fz_finish();
}
