// OPT: O0 O2
// Found writing the IR filetests (tests/filetests/compared_value_gets_no_adjoint.ll):
// `exp(x)` used only in a comparison was still given an adjoint (activity's usefulness
// walk went through the comparison into its operands). That adjoint is zero, but the
// reverse of `exp` multiplied it by exp(x) = inf for x = 800: 0 * inf = NaN, added into
// the gradient. Values that only reach comparisons now get no adjoint code at all.
// Oracle: analytic (d/dx of x*x is 2x, of 3x is 3; of the sum, per element).
#include "fz_test.h"

__attribute__((noinline)) double pick(double x) {
  double t = exp(x);
  if (t > 2.0) return x * x;
  return 3.0 * x;
}

__attribute__((noinline)) double pick_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i]) > 2.0 ? x[i] * x[i] : 3.0 * x[i];
  return s;
}

int main(void) {
  volatile double big = 800.0, small = -1.0;
  fz_check("pick'(800)", __enzyme_autodiff((void *)pick, big), 1600.0, 1e-12);
  fz_check("pick'(-1)", __enzyme_autodiff((void *)pick, small), 3.0, 1e-12);
  double x[4] = {800.0, -1.0, 1.5, 710.0}, dx[4] = {0};
  __enzyme_autodiff((void *)pick_sum, x, dx, 4);
  for (int i = 0; i < 4; i++) fz_check("pick_sum'", dx[i], exp(x[i]) > 2.0 ? 2 * x[i] : 3.0, 1e-12);
  return fz_finish();
}
