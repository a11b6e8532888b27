// OPT: O0 O2
// Aligned scratch buffers the way numerical C code allocates them: posix_memalign (the
// pointer comes back through an out-parameter), aligned_alloc (size is the second
// argument) and memalign, in reverse and forward mode.
// Oracle: analytic: f = sum_i x_i^2 exp(x_i) / 2 + sum_i x_i^3,
// df/dx_i = x_i exp(x_i) + x_i^2 exp(x_i) / 2 + 3 x_i^2.
#include <malloc.h>
#include "fz_test.h"
#include "fz_modes.h"

#define N 8

double f(const double *x, int n) {
  double *a = 0;
  if (posix_memalign((void **)&a, 64, (size_t)n * sizeof(double)) != 0) return 0;
  double *b = aligned_alloc(64, 64 * (((size_t)n * sizeof(double) + 63) / 64));
  double *c = memalign(32, (size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) {
    a[i] = x[i] * x[i];
    b[i] = exp(x[i]);
    c[i] = x[i] * a[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += 0.5 * a[i] * b[i] + c[i];
  free(a);
  free(b);
  free(c);
  return s;
}

int main(void) {
  fz_seed(171);
  double x[N], dx[N] = {0}, want[N];
  fz_fill(x, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    want[i] = x[i] * exp(x[i]) + 0.5 * x[i] * x[i] * exp(x[i]) + 3 * x[i] * x[i];
  fz_check_arr("reverse", dx, want, N, 1e-12);
  for (int k = 0; k < N; k++) {
    double v[N] = {0};
    v[k] = 1;
    fz_check("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N), want[k],
             1e-12);
  }
  return fz_finish();
}
