// OPT: O0 O1 O2 O3
// ARGS: -lopenblas
// A ridge-regression loss written with OpenBLAS the way C users write it: residual
// r = A w - b by `cblas_dcopy` + `cblas_dgemv` (row-major, A and b constant), the loss
// 0.5 r.r (`cblas_ddot`) + 0.5 lambda ||w||^2 (`cblas_dnrm2`, squared) into a scratch
// buffer from `malloc`; the gradient by `__enzyme_autodiff`, and again in split mode
// (`__enzyme_augmentfwd` with `enzyme_tape` in a caller slot, then `__enzyme_reverse`
// with a seed of 2), and forward mode with `enzyme_dupnoneed`. Oracle: the analytic
// gradient A^T (A w - b) + lambda w, and the forward/reverse dot product.
#include "fz_test.h"
#include <cblas.h>
#include <stdlib.h>

extern int enzyme_tape;
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define M 7
#define N 4

double ridge(const double *A, const double *b, const double *w, double lambda) {
  double *r = (double *)malloc(M * sizeof(double));
  cblas_dcopy(M, b, 1, r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, M, N, 1.0, A, N, w, 1, -1.0, r, 1);
  double nw = cblas_dnrm2(N, w, 1);
  double l = 0.5 * cblas_ddot(M, r, 1, r, 1) + 0.5 * lambda * nw * nw;
  free(r);
  return l;
}

int main(void) {
  fz_seed(816);
  double A[M * N], b[M], w[N], want[N];
  fz_fill(A, M * N, -1, 1);
  fz_fill(b, M, -1, 1);
  fz_fill(w, N, -1, 1);
  double lambda = 0.3;
  for (int j = 0; j < N; j++) want[j] = lambda * w[j];
  for (int i = 0; i < M; i++) {
    double ri = -b[i];
    for (int j = 0; j < N; j++) ri += A[i * N + j] * w[j];
    for (int j = 0; j < N; j++) want[j] += A[i * N + j] * ri;
  }
  double dw[N] = {0};
  __enzyme_autodiff((void *)ridge, enzyme_const, A, enzyme_const, b, enzyme_dup, w, dw,
                    enzyme_const, lambda);
  fz_check_arr("reverse vs analytic", dw, want, N, 1e-12);

  double dw2[N] = {0};
  void *tape = NULL;
  double l = __enzyme_augmentfwd_d((void *)ridge, enzyme_tape, &tape, enzyme_const, A,
                                   enzyme_const, b, enzyme_dup, w, dw2, enzyme_const, lambda);
  fz_check("split: primal", l, ridge(A, b, w, lambda), 1e-14);
  __enzyme_reverse((void *)ridge, enzyme_tape, &tape, enzyme_const, A, enzyme_const, b,
                   enzyme_dup, w, dw2, enzyme_const, lambda, 2.0);
  for (int j = 0; j < N; j++) fz_check("split: 2 x gradient", dw2[j], 2 * want[j], 1e-12);

  double v[N] = {0.5, -1.0, 0.25, 2.0}, dot = 0;
  double t = __enzyme_fwddiff((void *)ridge, enzyme_const, A, enzyme_const, b, enzyme_dupnoneed,
                              w, v, enzyme_const, lambda);
  for (int j = 0; j < N; j++) dot += want[j] * v[j];
  fz_check("forward vs reverse (dot product)", t, dot, 1e-12);
  return fz_finish();
}
