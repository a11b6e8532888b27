// OPT: O0 O1 O2
// From random differential testing: a helper evaluates hypot(0, 0) (no derivative at the
// origin) and its result is never used. Its adjoint is zero, but zero times the NaN
// partial x/r was NaN and spread into every gradient. Now hypot's partial is 0 at the
// origin, and results that reach no output are not differentiated at all.
// Oracle: analytic (the helper does not affect f).
#include "fz_test.h"

__attribute__((noinline)) double h(const double *p, int m, double s) {
  double acc = atan(atan2(s, 1.0952));
  for (int k = 0; k < m; k++) acc = 0.5652 * acc + tanh(hypot(p[(k + 7) % m], p[(k + 7) % m] * s));
  return acc;
}

double f(double *x, double *y, int n, double b) {
  double zeros[9] = {0};
  double unused = 0.5028 * x[0];
  unused += 0.2625 * h(zeros, n, b);
  double ret = 0;
  for (int q = 0; q < n; q++) ret += x[q] * 0.7475 + sin(y[q]);
  return ret;
}

typedef struct { double db; } grad1;

int main(void) {
  fz_seed(139);
  double x[9], y[9], dx[9] = {0}, dy[9] = {0};
  fz_fill(x, 9, -1, 1);
  fz_fill(y, 9, -1, 1);
  double db = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 9, 0.3);
  fz_check("db", db, 0.0, 0.0);
  for (int i = 0; i < 9; i++) {
    fz_check("dx", dx[i], 0.7475, 1e-12);
    fz_check("dy", dy[i], cos(y[i]), 1e-12);
  }
  return fz_finish();
}
