// OPT: O0 O2
// Memory from the program's own allocation wrappers (issue 17's audit): `my_alloc(n)`
// takes no differentiable input, so at -O0 (where it is not inlined) its result used to
// get no shadow and every value stored there lost its derivative (a silent zero). A
// wrapper around a wrapper, a calloc wrapper returning an offset into the block, reverse
// and forward mode. Oracles: analytic.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) void *my_alloc(size_t n) { return malloc(n); }
__attribute__((noinline)) double *alloc_doubles(int n) { return (double *)my_alloc(n * sizeof(double)); }
/* One header double before the data. */
__attribute__((noinline)) double *alloc_with_header(int n) {
  double *b = (double *)calloc(n + 1, sizeof(double));
  return b + 1;
}

/* sum_i (x_i^2 + x_i x_{i+1}) computed through scratch buffers from the wrappers. */
double f(const double *x, int n) {
  double *t = alloc_doubles(n);
  double *u = alloc_with_header(n);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int i = 0; i + 1 < n; i++) u[i] = x[i] * x[i + 1];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] + u[i];
  free(t);
  free(u - 1);
  return s;
}

#define N 7
int main(void) {
  fz_seed(402);
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    want[i] = 2 * x[i] + (i + 1 < N ? x[i + 1] : 0) + (i > 0 ? x[i - 1] : 0);
  fz_check_arr("grad", dx, want, N, 1e-12);
  double v[N], jv = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  fz_check("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N), jv, 1e-12);
  return fz_finish();
}
