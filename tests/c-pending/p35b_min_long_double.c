// OPT: O0 O1 O2 O3
// Minimal: a computation done in long double (x86_fp80) inside a double
// function. d/dx (x*x) = 2x, Ferrozyme returns 0 silently (no diagnostic).
#include "../c/fz_test.h"

double f(double x) {
  long double a = x;
  return (double)(a * a);
}

int main(void) {
  volatile double xv = 1.25;
  double d = __enzyme_autodiff((void *)f, (double)xv);
  fz_check("df", d, 2.5, 1e-12);
  return fz_finish();
}
