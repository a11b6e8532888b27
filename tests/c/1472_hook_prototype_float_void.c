// OPT: O0 O2
// err36: `__enzyme_autodiff` declared with another return type than the derivative's.
// Declared `float` for a `double` function, the derivative comes back rounded to float
// (the value Enzyme gives); declared `void`, the active scalar's derivative is dropped
// and the `enzyme_dup` shadow still receives its adjoint. (`int` is refused:
// tests/errors/err36_hook_returns_int.c.)
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

double cube(double x) { return x * x * x; }

double scaled_sum(double s, const double *v) { return s * (v[0] + 2.0 * v[1]); }

int main(void) {
  float d = __enzyme_autodiff_f((void *)cube, 1.1);
  fz_check("float-declared derivative", d, (float)(3 * 1.1 * 1.1), 0);
  double v[2] = {0.5, -1.5}, dv[2] = {0, 0};
  __enzyme_autodiff_v((void *)scaled_sum, 3.0, enzyme_dup, v, dv);
  fz_check("dv0 through a void-declared hook", dv[0], 3.0, 1e-15);
  fz_check("dv1 through a void-declared hook", dv[1], 6.0, 1e-15);
  return fz_finish();
}
