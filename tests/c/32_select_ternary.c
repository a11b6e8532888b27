// OPT: O0 O1 O2 O3
// Ternaries that become `select`: relu, clamp, abs-like, max over an array.
#include "fz_test.h"

double act(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    double relu = v > 0.0 ? v : 0.0;
    double clamp = v < -0.5 ? -0.5 : (v > 0.5 ? 0.5 : v);
    double ab = v < 0.0 ? -v : v;
    s += relu * relu + 3.0 * clamp + ab * v;
  }
  return s;
}

double amax(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  return m * m;
}

#define N 40

int main(void) {
  fz_seed(32);
  double x[N], dx[N], want[N];
  for (int i = 0; i < N; i++) {
    double v = fz_uniform(-1, 1);
    if (fabs(v) < 0.02 || fabs(fabs(v) - 0.5) < 0.02) v = 0.25 * (v > 0 ? 1 : -1);
    x[i] = v;
  }
  fz_zero(dx, N);
  __enzyme_autodiff((void *)act, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double v = x[i];
    want[i] = (v > 0 ? 2 * v : 0.0) + (fabs(v) < 0.5 ? 3.0 : 0.0) + 2.0 * fabs(v);
  }
  fz_check_arr("dact", dx, want, N, 1e-10);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)amax, enzyme_dup, x, dx, enzyme_const, N);
  int k = 0;
  for (int i = 1; i < N; i++)
    if (x[i] > x[k]) k = i;
  fz_zero(want, N);
  want[k] = 2.0 * x[k];
  fz_check_arr("damax", dx, want, N, 1e-10);
  return fz_finish();
}
