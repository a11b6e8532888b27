// OPT: O0 O1 O2 O3
// __enzyme_autodiff called many times on the same function in a loop
// without zeroing (shadows accumulate), with state changing between calls
// (a global counter read by the function, an in-place array), and a second
// function sharing a helper with the first.
#include "fz_test.h"

int g_calls;
__attribute__((noinline)) double helper(const double *x, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * c;
  return s;
}
double f(double *x, int n) {
  g_calls++;
  double c = 1.0 + 0.5 * (g_calls % 3);
  double s = helper(x, n, c);
  for (int i = 0; i < n; i++) x[i] *= 1.01;  /* persists across calls */
  return s;
}
double g(double *x, int n, double a) { return helper(x, n, a) * a; }

#define N 5
int main(void) {
  fz_seed(229);
  double x[N], x0[N], dx[N], want[N];
  fz_fill(x0, N, -1, 1);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  fz_zero(want, N);
  g_calls = 0;
  for (int r = 0; r < 50; r++) {
    double c = 1.0 + 0.5 * ((r + 1) % 3);
    /* dx holds the adjoint of x AFTER the call; the in-place x *= 1.01 scales it */
    for (int i = 0; i < N; i++) want[i] = 1.01 * want[i] + 2 * x[i] * c;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  }
  fz_check_arr("accum dx", dx, want, N, 1e-10);
  fz_check("calls", g_calls, 50, 0);
  double acc = 0, wacc = 0;
  for (int r = 0; r < 20; r++) {
    double a = 0.1 * r;
    double ddx[N];
    fz_zero(ddx, N);
    acc += __enzyme_autodiff((void *)g, enzyme_dup, x, ddx, enzyme_const, N, a);
    double h = 0;
    for (int i = 0; i < N; i++) h += x[i] * x[i];
    wacc += 2 * a * h;
  }
  fz_check("accum da", acc, wacc, 1e-10);
  return fz_finish();
}
