// OPT: O0 O1 O2 O3
// A loop whose body calls a noinline helper that itself loops and writes
// through pointers (axpy into a work buffer, and an in-place scaling).
#include "fz_test.h"

__attribute__((noinline)) void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

__attribute__((noinline)) void tanh_inplace(double *y, int n, double *acc) {
  for (int i = 0; i < n; i++) {
    y[i] = tanh(y[i]);
    *acc += y[i] * y[i];
  }
}

/* A is k x n (rows), c has k coefficients; y = tanh(sum_r c_r A_r) repeatedly */
double f(const double *A, const double *c, int k, int n, double *work) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) work[i] = 0.0;
  for (int rep = 0; rep < 3; rep++) {
    for (int r = 0; r < k; r++) axpy(c[r], &A[r * n], work, n);
    tanh_inplace(work, n, &acc);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += work[i] * (double)(i + 1);
  return s + acc;
}

#define K 4
#define NN 7
struct ctx { double *A, *c; };
static double eval(void *p) {
  struct ctx *k = p;
  double w[NN];
  return f(k->A, k->c, K, NN, w);
}

int main(void) {
  fz_seed(103);
  double A[K * NN], dA[K * NN], c[K], dc[K], fdA[K * NN], fdc[K], w[NN], dw[NN];
  fz_fill(A, K * NN, -1, 1);
  fz_fill(c, K, -0.8, 0.8);
  fz_zero(dA, K * NN);
  fz_zero(dc, K);
  fz_zero(dw, NN);
  __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_dup, c, dc, enzyme_const, K,
                    enzyme_const, NN, enzyme_dup, w, dw);
  struct ctx k = {A, c};
  fz_fd_grad(eval, &k, A, K * NN, fdA);
  fz_fd_grad(eval, &k, c, K, fdc);
  fz_check_arr("dA", dA, fdA, K * NN, 1e-6);
  fz_check_arr("dc", dc, fdc, K, 1e-6);
  /* work buffer is const-like output: pass as enzyme_const too */
  fz_zero(dA, K * NN);
  fz_zero(dc, K);
  __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_dup, c, dc, enzyme_const, K,
                    enzyme_const, NN, enzyme_dupnoneed, w, dw);
  fz_check_arr("dA (dupnoneed work)", dA, fdA, K * NN, 1e-6);
  return fz_finish();
}
