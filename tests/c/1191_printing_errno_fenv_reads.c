// OPT: O0 O1 O2 O3
// Side channels inside the differentiated function: printf and fprintf(stderr) of active
// values (inactive: they print the primal), errno set by a libm call at a domain point
// on a path whose value is not used (log of a negative in a guarded branch) and read
// back to choose a fallback, fenv rounding-mode and exception-flag reads (fegetround,
// fetestexcept after feclearexcept) steering integer decisions, puts/fputs of a fixed
// string. Oracle: analytic.
#include <errno.h>
#include <fenv.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double logged(double x, double y) {
  double r = x * y + sin(x);
  printf("  logged: r=%.6f\n", r);
  fprintf(stderr, "  logged (stderr): x=%g y=%g r=%g\n", x, y, r);
  return r * r;
}

double guarded_log(double x, double fallback_scale) {
  errno = 0;
  double t = log(x - 2.0); /* x < 2: a domain error, errno = EDOM (t is NaN) */
  if (errno == EDOM || t != t) return fallback_scale * x * x; /* fallback */
  return t;
}

double rounding_aware(double x) {
  int mode = fegetround();
  feclearexcept(FE_ALL_EXCEPT);
  volatile double one = 1.0;
  volatile double third = one / 3.0; /* inexact, at run time */
  int inexact = fetestexcept(FE_INEXACT) != 0;
  puts("  rounding_aware: checked the flags");
  fputs("  rounding_aware (stderr)\n", stderr);
  double k = (mode == FE_TONEAREST ? 2.0 : 1.0) + (inexact ? 0.5 : 0.0);
  return k * x * x * x + third * 0.0;
}

int main(void) {
  double x = 0.7, y = -1.3;
  fz_grad2 g = __enzyme_autodiff2((void *)logged, x, y);
  double r = x * y + sin(x);
  fz_check("logged d/dx", g.d0, 2 * r * (y + cos(x)), 1e-14);
  fz_check("logged d/dy", g.d1, 2 * r * x, 1e-14);
  fz_check("logged forward d/dx", __enzyme_fwddiff((void *)logged, x, 1.0, y, 0.0),
           2 * r * (y + cos(x)), 1e-14);

  fz_grad2 h = __enzyme_autodiff2((void *)guarded_log, 1.5, 3.0);
  fz_check("errno fallback d/dx", h.d0, 2 * 3.0 * 1.5, 1e-14);
  fz_check("errno fallback d/dscale", h.d1, 1.5 * 1.5, 1e-14);
  h = __enzyme_autodiff2((void *)guarded_log, 2.5, 3.0);
  fz_check("errno normal d/dx", h.d0, 1.0 / 0.5, 1e-14);
  fz_check("errno normal d/dscale", h.d1, 0.0, 0);

  /* k as the primal decides it (2.5 under round-to-nearest with the flag raised) */
  double k = rounding_aware(0.9) / (0.9 * 0.9 * 0.9);
  fz_check("fenv primal k", k, 2.5, 1e-14);
  double d = __enzyme_autodiff((void *)rounding_aware, 0.9);
  fz_check("fenv d/dx", d, k * 3 * 0.9 * 0.9, 1e-14);
  fz_check("fenv forward", __enzyme_fwddiff((void *)rounding_aware, 0.9, 1.0),
           k * 3 * 0.9 * 0.9, 1e-14);
  return fz_finish();
}
