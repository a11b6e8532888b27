// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: cblas_dtrsv
// EXPECT-ERROR-LINE: cblas_dtrsv(CblasRowMajor
// A CBLAS routine without a derivative rule (a triangular solve, cblas_dtrsv) on the
// differentiated path: OpenBLAS has no IR, so the call must be refused by name and line,
// never differentiated as if it did nothing (a silent zero). The rules cover ddot, daxpy,
// dcopy, dscal, dnrm2, dgemv, dger, dgemm (README "BLAS and LAPACK"; tests/c/1282).
#include <cblas.h>
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);

double solve_sum(const double *L, double *b) {
  cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, 3, L, 3, b, 1);
  return b[0] + b[1] + b[2];
}

int main(void) {
  double L[9] = {2, 0, 0, 1, 3, 0, 0.5, 1, 4}, dL[9] = {0}, b[3] = {1, 2, 3}, db[3] = {0};
  __enzyme_autodiff((void *)solve_sum, enzyme_dup, L, dL, enzyme_dup, b, db);
  return 0;
}
