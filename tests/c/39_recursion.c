// OPT: O0 O2
// Recursive functions: recursive power (x^n by squaring) and a recursive
// divide-and-conquer sum over an array.
#include "fz_test.h"

double rpow(double x, int n) {
  if (n == 0) return 1.0;
  if (n % 2 == 0) {
    double h = rpow(x, n / 2);
    return h * h;
  }
  return x * rpow(x, n - 1);
}

double rsum(const double *x, int lo, int hi) {
  if (hi - lo == 1) return x[lo] * x[lo] * (double)(lo + 1);
  int mid = (lo + hi) / 2;
  return rsum(x, lo, mid) + rsum(x, mid, hi);
}

#define N 13

int main(void) {
  fz_seed(39);
  for (int n = 0; n <= 11; n++) {
    double x = fz_uniform(0.5, 1.3);
    double d = __enzyme_autodiff((void *)rpow, x, enzyme_const, n);
    char what[40];
    snprintf(what, sizeof what, "drpow n=%d", n);
    fz_check(what, d, n ? n * pow(x, n - 1) : 0.0, 1e-10);
  }
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)rsum, enzyme_dup, x, dx, enzyme_const, 0, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0 * x[i] * (i + 1);
  fz_check_arr("drsum", dx, want, N, 1e-10);
  return fz_finish();
}
