// OPT: O0 O1 O2 O3
// Run-time activity: at -O2, `c ? y[k] : x[k]` is one load through `select c, &y[k],
// &x[k]`, with y enzyme_const (no shadow) and x enzyme_dup. Adjoints are moved only when
// the pointer is x (guarded masked accesses), never into y's (missing) shadow.
// Also a store through such a pointer, and a pointer read through one. Oracle: analytic.
#include "fz_test.h"

double f(double *x, const double *y, int n, double a) {
  double s = 0;
  for (int k = 0; k < n; k++) s += cos(a * k > 0.5 ? y[k] : x[k]) * (k + 1);
  return s;
}

// Writes through the chosen pointer: x[k] <- x[k]^2 where x is chosen; then sums x.
double g(double *x, double *y, int n, double a) {
  for (int k = 0; k < n; k++) {
    double *p = a * k > 0.5 ? y : x;
    p[k] = p[k] * p[k];
  }
  double s = 0;
  for (int k = 0; k < n; k++) s += x[k] * (k + 1);
  return s;
}

int main(void) {
  fz_seed(140);
  enum { N = 8 };
  double x[N], y[N], dx[N], x0[N], y0[N];
  const double a = 0.3;
  fz_fill(x0, N, -1, 1);
  fz_fill(y0, N, -1, 1);
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, N, enzyme_const, a);
  for (int k = 0; k < N; k++) fz_check("df/dx", dx[k], a * k > 0.5 ? 0.0 : -sin(x0[k]) * (k + 1), 1e-12);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, N, enzyme_const, a);
  for (int k = 0; k < N; k++) fz_check("dg/dx", dx[k], a * k > 0.5 ? (double)(k + 1) : 2 * x0[k] * (k + 1), 1e-12);
  return fz_finish();
}
