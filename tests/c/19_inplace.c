// OPT: O0 O2
// In-place update: x[i] = x[i]*x[i], then sum. The primal overwrites x, so
// the reverse pass needs the original values; dx_i = 2 * x_orig_i.
#include "fz_test.h"

double square_inplace_sum(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * 3.0;
  return s;
}

/* two in-place passes: x <- sin(x); x <- x*x; sum */
double twice_inplace(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = sin(x[i]);
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

#define N 19

int main(void) {
  fz_seed(19);
  double x[N], x0[N], dx[N], want[N];
  fz_fill(x0, N, -2, 2);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)square_inplace_sum, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 6.0 * x0[i];
  fz_check_arr("dx", dx, want, N, 1e-10);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)twice_inplace, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0 * sin(x0[i]) * cos(x0[i]);
  fz_check_arr("dx twice", dx, want, N, 1e-10);
  return fz_finish();
}
