// OPT: O0 O1 O2 O3
// Forward mode on scalar polynomials and a rational function: the hook
// returns the tangent of the result, linear in the input tangent; unmarked,
// enzyme_dup and enzyme_dupnoneed scalars. Dot-product identity against
// __enzyme_autodiff (for R->R: fwd(x, v) * w == v * rev(x) * w).
#include "fz_test.h"
#include "fz_modes.h"

double poly(double x) { return 0.5 * x * x * x * x + 3.0 * x * x * x - 2.0 * x * x + x - 7.0; }
static double dpoly(double x) { return 2.0 * x * x * x + 9.0 * x * x - 4.0 * x + 1.0; }

__attribute__((noinline)) double rat(double x) { return (x * x - 1.0) / (x * x + x + 2.0); }
static double drat(double x) {
  double q = x * x + x + 2.0;
  return (2.0 * x * q - (x * x - 1.0) * (2.0 * x + 1.0)) / (q * q);
}

int main(void) {
  fz_seed(200);
  for (int t = 0; t < 6; t++) {
    double x = fz_uniform(-3.0, 3.0), v = fz_uniform(0.5, 2.0);
    double d = __enzyme_fwddiff((void *)poly, x, 1.0);
    fz_mcheck2("poly' (unmarked)", d, dpoly(x), 1e-12, fz_fd1(poly, x), 1e-6);
    d = __enzyme_fwddiff((void *)poly, enzyme_dup, x, v);
    fz_mcheck2("poly' * v (enzyme_dup)", d, v * dpoly(x), 1e-12, v * fz_fd1(poly, x), 1e-6);
    d = __enzyme_fwddiff((void *)poly, enzyme_dupnoneed, x, v);
    fz_mcheck("poly' * v (enzyme_dupnoneed)", d, v * dpoly(x), 1e-12);
    d = __enzyme_fwddiff((void *)poly, x, 0.0);
    fz_mcheck("zero tangent", d, 0.0, 0.0);

    double r = __enzyme_fwddiff((void *)rat, enzyme_dup, x, v);
    fz_mcheck2("rat' * v", r, v * drat(x), 1e-12, v * fz_fd1(rat, x), 1e-6);
    /* dot-product identity with reverse mode (w = output seed) */
    double w = fz_uniform(-2.0, 2.0);
    double jtw = w * __enzyme_autodiff((void *)rat, x);
    double jv = r;
    fz_check("rev rat' vs analytic", jtw, w * drat(x), 1e-12);
    fz_mcheck_dot("rat", &v, &jtw, 1, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}
