// OPT: O0 O1 O2 O3
// A callback passed to the hook as an enzyme_const argument of the differentiated
// function (a quadrature routine taking the integrand), whose only other use is that
// hook argument: the integrand is then a possible target of the call through the
// pointer (before probe27, -O1..-O3 refused the call: "no function of its type has its
// address taken"). Simpson's rule over a parameterised integrand, reverse and forward.
// Oracle: analytic derivatives of the (exactly integrated) cubic, and central differences.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_fwddiff(void *, ...);

static double cubic(double x, double p) { return p * x * x * x + sin(p) * x; }

double simpson(double (*f)(double, double), double a, double b, double p, int n) {
  double h = (b - a) / n, s = f(a, p) + f(b, p);
  for (int i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(a + i * h, p);
  return s * h / 3;
}

int main(void) {
  double a = 0.2, b = 1.4, p = 0.9;
  typedef struct { double da, db, dp; } g3;
  extern g3 __enzyme_autodiff_3(void *, ...);
  g3 g = __enzyme_autodiff_3((void *)simpson, enzyme_const, cubic, enzyme_out, a, enzyme_out, b,
                             enzyme_out, p, enzyme_const, 8);
  fz_check("d/da", g.da, -cubic(a, p), 1e-12);
  fz_check("d/db", g.db, cubic(b, p), 1e-12);
  double want_p = (pow(b, 4) - pow(a, 4)) / 4 + cos(p) * (b * b - a * a) / 2;
  fz_check("d/dp", g.dp, want_p, 1e-12);
  double t = __enzyme_fwddiff((void *)simpson, enzyme_const, cubic, enzyme_const, a,
                              enzyme_const, b, p, 1.0, enzyme_const, 8);
  fz_check("forward d/dp", t, want_p, 1e-12);
  return fz_finish();
}
