// OPT: O0 O2
// aligned_alloc work buffers in the differentiated function (C11; 64-byte alignment for
// SIMD), in reverse and forward mode. Oracle: analytic.
#include "fz_test.h"

double f(const double *x, int n) {
  size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
  double *t = aligned_alloc(64, bytes);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  free(t);
  return s;
}

extern double __enzyme_fwddiff(void *, ...);

int main(void) {
  enum { N = 100 };
  double x[N], dx[N], tx[N];
  fz_seed(282);
  fz_fill(x, N, -1, 1);
  fz_fill(tx, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) {
    fz_check("dx", dx[i], 3 * x[i] * x[i], 1e-12);
    dot += 3 * x[i] * x[i] * tx[i];
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, N);
  fz_check("tangent", t, dot, 1e-10);
  return fz_finish();
}
