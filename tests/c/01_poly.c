// OPT: O0 O2
// ARGS: -lm
// Scalar polynomial with one active double argument; derivative returned.
#include "fz_test.h"

double poly(double x) { return 3.0 * x * x * x - 2.0 * x * x + x - 7.0 + 0.5 * x * x * x * x; }

int main(void) {
  fz_seed(1);
  for (int t = 0; t < 5; t++) {
    double x = fz_uniform(-3.0, 3.0);
    double got = __enzyme_autodiff((void *)poly, x);
    double want = 9.0 * x * x - 4.0 * x + 1.0 + 2.0 * x * x * x;
    fz_check("dpoly/dx analytic", got, want, 1e-10);
    fz_check("dpoly/dx fd", got, fz_fd1(poly, x), 1e-6);
  }
  /* explicit enzyme_out marker gives the same thing */
  double x = fz_uniform(-2.0, 2.0);
  double got = __enzyme_autodiff((void *)poly, enzyme_out, x);
  fz_check("dpoly/dx (enzyme_out)", got, 9.0 * x * x - 4.0 * x + 1.0 + 2.0 * x * x * x, 1e-10);
  return fz_finish();
}
