// OPT: O0 O1 O2 O3
// Matrix-vector product with the output written through a pointer:
// y = A x; seeding dy = w gives dA = w x^T, dx = A^T w.
#include "fz_test.h"

void matvec(const double *A, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

#define M 7
#define NN 13

int main(void) {
  fz_seed(16);
  double A[M * NN], x[NN], y[M], dA[M * NN], dx[NN], dy[M], w[M];
  fz_fill(A, M * NN, -1, 1);
  fz_fill(x, NN, -1, 1);
  fz_fill(w, M, -1, 1);
  fz_zero(dA, M * NN);
  fz_zero(dx, NN);
  fz_zero(y, M);
  memcpy(dy, w, sizeof dy);
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, M, enzyme_const, NN);
  double wantA[M * NN], wantx[NN], wanty[M];
  for (int i = 0; i < M; i++) {
    wanty[i] = 0;
    for (int j = 0; j < NN; j++) {
      wantA[i * NN + j] = w[i] * x[j];
      wanty[i] += A[i * NN + j] * x[j];
    }
  }
  for (int j = 0; j < NN; j++) {
    wantx[j] = 0;
    for (int i = 0; i < M; i++) wantx[j] += A[i * NN + j] * w[i];
  }
  fz_check_arr("primal y", y, wanty, M, 1e-10);
  fz_check_arr("dA", dA, wantA, M * NN, 1e-10);
  fz_check_arr("dx", dx, wantx, NN, 1e-10);
  /* the output shadow is consumed (zeroed) by the reverse pass, as in Enzyme */
  double zero[M];
  fz_zero(zero, M);
  fz_check_arr("dy consumed", dy, zero, M, 0.0);
  return fz_finish();
}
