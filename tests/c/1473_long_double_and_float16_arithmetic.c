// OPT: O0 O2
// err36: a new user's other float types, checked against the derivative by hand:
// `long double` (x87 80-bit) arithmetic and libm (`sinl`, `expl`) in reverse and forward
// mode, and `_Float16` arithmetic inside a `double` function (the derivative flows through
// the half-precision rounding as through any fptrunc/fpext: exact for x = 0.75).
// (`__float128` is refused with a message: tests/errors/audit_float128.c.)
#include "fz_test.h"

extern long double __enzyme_autodiff_l(void *, ...);
extern long double __enzyme_fwddiff_l(void *, ...);

long double g(long double x) { return x * x * sinl(x) + expl(0.5L * x); }

static long double dg(long double x) {
  return 2 * x * sinl(x) + x * x * cosl(x) + 0.5L * expl(0.5L * x);
}

double h(double x) {
  _Float16 a = (_Float16)x;
  _Float16 b = a * a * (_Float16)3;
  return (double)b + x;
}

int main(void) {
  long double x = 0.7L;
  long double r = __enzyme_autodiff_l((void *)g, x);
  long double t = __enzyme_fwddiff_l((void *)g, x, 1.0L);
  long double want = dg(x);
  fz_check("long double reverse", (double)((r - want) / want), 0, 1e-17);
  fz_check("long double forward", (double)((t - want) / want), 0, 1e-17);
  double d = __enzyme_autodiff((void *)h, 0.75);
  fz_check("_Float16 inside double", d, 6 * 0.75 + 1, 0);
  return fz_finish();
}
