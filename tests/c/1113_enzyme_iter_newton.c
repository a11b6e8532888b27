// OPT: O0 O1 O2 O3
// A Newton iteration for the cube root whose iteration count is __enzyme_iter(n, k):
// the primal runs n iterations, each derivative k more, so derivatives of a truncated
// iteration stay accurate; first derivatives by reverse and forward mode and a second
// derivative by forward over reverse. Oracle: analytic derivatives of cbrt.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_fwddiff(void *, ...);
extern int __enzyme_iter(int, int);

double newton_cbrt(double a) {
  double y = a > 1 ? a / 3 : 1.0;
  int n = __enzyme_iter(12, 3);
  for (int i = 0; i < n; i++) y = y - (y * y * y - a) / (3 * y * y);
  return y;
}

double d_newton(double a) { return __enzyme_autodiff((void *)newton_cbrt, a); }

int main(void) {
  const double as[4] = {0.5, 2.0, 27.0, 300.0};
  for (int k = 0; k < 4; k++) {
    double a = as[k], c = cbrt(a);
    char b[48];
    snprintf(b, sizeof b, "primal cbrt(%g)", a);
    fz_check(b, newton_cbrt(a), c, 1e-12);
    snprintf(b, sizeof b, "reverse d/da (%g)", a);
    fz_check(b, d_newton(a), 1 / (3 * c * c), 1e-12);
    snprintf(b, sizeof b, "forward d/da (%g)", a);
    fz_check(b, __enzyme_fwddiff((void *)newton_cbrt, a, 1.0), 1 / (3 * c * c), 1e-12);
    snprintf(b, sizeof b, "second derivative (%g)", a);
    fz_check(b, __enzyme_fwddiff((void *)d_newton, a, 1.0), -2 / (9 * c * c * c * c * c), 1e-10);
  }
  return fz_finish();
}
