#include "fz_test.h"
double blend(double a, double b, double t);
double f(double t) { return blend(1.0, 3.0, t); }
int main(void) {
  double d = __enzyme_autodiff((void *)f, 0.25);
  fz_check("d", d, 2.0 * 6 * 0.25 * 0.75, 1e-12);
  return fz_finish();
}
