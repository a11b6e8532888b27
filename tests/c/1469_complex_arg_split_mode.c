// OPT: O0 O2
// VARIANTS: all
// Split mode (`__enzyme_augmentfwd` + `__enzyme_reverse`) with an active `double
// _Complex` argument passed by value next to an `enzyme_const` real one: through the
// clang plugin the complex value is one argument of both calls (its two parts both
// active), and `__enzyme_reverse` returns both parts' adjoints, scaled by the seed of the
// result that follows the arguments. Truth: d/dx Re(z^3) = Re(3 z^2), d/dy Re(z^3) =
// -Im(3 z^2) (Cauchy-Riemann), times the constant factor and the seed; the augmented
// call's primal result against the function.
#include "fz_test.h"
#include <complex.h>

extern int enzyme_const;
typedef struct { void *tape; double r; } aug;
aug __enzyme_augmentfwd(void *, ...);
double _Complex __enzyme_reverse(void *, ...);

__attribute__((noinline)) double g(double _Complex z, double a) { return a * creal(z * z * z); }

int main(void) {
  double _Complex z = 0.5 + 0.25 * I;
  double a = 2.0, seed = 1.5;
  aug t = __enzyme_augmentfwd((void *)g, z, enzyme_const, a);
  fz_check("primal", t.r, g(z, a), 1e-15);
  double _Complex d = __enzyme_reverse((void *)g, z, enzyme_const, a, seed, t.tape);
  double _Complex w = 3.0 * z * z;
  fz_check("d/dx", creal(d), seed * a * creal(w), 1e-12);
  fz_check("d/dy", cimag(d), -seed * a * cimag(w), 1e-12);
  return fz_finish();
}
