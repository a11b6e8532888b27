// OPT: O0 O2 O3
// A global constant table used as coefficients (constants, no shadow), and a
// global int call counter incremented inside (inactive).
#include "fz_test.h"

static const double coef[5] = {0.5, -1.25, 2.0, 0.75, -0.1};
static const int powers[5] = {0, 1, 2, 3, 4};
int g_counter = 0;

double f(const double *x, int n) {
  g_counter++;
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double p = 0.0, xp = 1.0;
    for (int k = 0; k < 5; k++) {
      (void)powers[k];
      p += coef[k] * xp;
      xp *= x[i];
    }
    s += p * p;
  }
  return s;
}

#define N 9

int main(void) {
  fz_seed(45);
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1.5, 1.5);
  fz_zero(dx, N);
  int before = g_counter;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double t = x[i];
    double p = coef[0] + t * (coef[1] + t * (coef[2] + t * (coef[3] + t * coef[4])));
    double dp = coef[1] + t * (2 * coef[2] + t * (3 * coef[3] + t * 4 * coef[4]));
    want[i] = 2.0 * p * dp;
  }
  fz_check_arr("dx", dx, want, N, 1e-10);
  fz_check("counter incremented", (double)(g_counter - before), 1.0, 0.0);
  fz_check("table untouched", coef[2], 2.0, 0.0);
  return fz_finish();
}
