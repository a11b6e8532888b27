// OPT: O0 O2
// libm hyperbolic functions: sinh cosh tanh (and a composite).
#include "fz_test.h"

double f_sinh(double x) { return sinh(x); }
double f_cosh(double x) { return cosh(x); }
double f_tanh(double x) { return tanh(x); }
double f_combo(double x) { return tanh(sinh(x)) * cosh(x); }

#define CHECK1(fn, x, formula)                                   \
  do {                                                           \
    double got_ = __enzyme_autodiff((void *)fn, (x));            \
    fz_check(#fn " analytic", got_, (formula), 1e-10);           \
    fz_check(#fn " fd", got_, fz_fd1(fn, (x)), 1e-6);            \
  } while (0)

int main(void) {
  fz_seed(10);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-2.0, 2.0);
    CHECK1(f_sinh, x, cosh(x));
    CHECK1(f_cosh, x, sinh(x));
    CHECK1(f_tanh, x, 1.0 - tanh(x) * tanh(x));
    double th = tanh(sinh(x));
    CHECK1(f_combo, x, (1.0 - th * th) * cosh(x) * cosh(x) + th * sinh(x));
  }
  return fz_finish();
}
