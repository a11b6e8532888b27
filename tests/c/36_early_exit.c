// OPT: O0 O2 O3
// Early exits: break out of a loop when a running sum crosses a threshold,
// return from inside a loop, and several return statements.
#include "fz_test.h"

double until_big(const double *x, int n, double thresh) {
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > thresh) break;
  }
  return s * (double)(i + 1);
}

double find_first_neg(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (x[i] < 0.0) return x[i] * x[i] * x[i];
  }
  if (n > 2) return x[0] * x[1];
  return 0.0;
}

#define N 20

int main(void) {
  fz_seed(36);
  double x[N], dx[N], want[N];
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.3, 1.0);
  /* pick threshold halfway between two partial sums so the break index is stable */
  double ps = 0, prev = 0;
  int stop = 7;
  for (int i = 0; i <= stop; i++) prev = ps, ps += x[i] * x[i];
  double thresh = 0.5 * (prev + ps);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)until_big, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, thresh);
  for (int i = 0; i < N; i++) want[i] = i <= stop ? 2.0 * x[i] * (stop + 1) : 0.0;
  fz_check_arr("duntil_big", dx, want, N, 1e-10);
  /* no break at all */
  fz_zero(dx, N);
  __enzyme_autodiff((void *)until_big, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 1e9);
  for (int i = 0; i < N; i++) want[i] = 2.0 * x[i] * (N + 1);
  fz_check_arr("duntil_big nobreak", dx, want, N, 1e-10);

  x[5] = -0.7;
  x[9] = -0.2;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)find_first_neg, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  want[5] = 3.0 * 0.49;
  fz_check_arr("dfind_first_neg", dx, want, N, 1e-10);
  x[5] = 0.7;
  x[9] = 0.2;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)find_first_neg, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  want[0] = x[1];
  want[1] = x[0];
  fz_check_arr("dfind_first_neg fallthrough", dx, want, N, 1e-10);
  return fz_finish();
}
