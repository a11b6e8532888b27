// OPT: O1 O2 O3
// IGNORE-REF: --ad-before-opt differentiates the loop before LLVM rotates it: its test at the top is refused there, as at -O0 (errors/set_fixed_point_exit_in_middle.c)
// `__enzyme_set_fixed_point` in a loop written with its test at the top,
// `while (*d > tol) { ... }`: optimized, LLVM rotates it into a guarded do-while whose
// body ends with the test, so one outlined iteration is a whole update z = phi(z, x)
// and the loop is differentiated at its fixed point (at -O0 the same source is refused,
// tests/errors/set_fixed_point_exit_in_middle.c). Two states (z and the change d), the
// returned z forwarded from the last store (a value the loop gives to the code after
// it). Oracle: the implicit derivative dz*/dx = 1 / (1 + 0.5 sin z*), reverse and
// forward, and central finite differences of the primal.
#include "fz_test.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>

extern double __enzyme_fwddiff(void *, ...);

double f(double *z, double *d, const double *x) {
  *d = 1;
  while (*d > 1e-15) {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof(double), enzyme_fp_state, d,
                             (int64_t)sizeof(double), enzyme_fp_reduction, 1e-30);
    double next = 0.5 * cos(*z) + *x;
    *d = fabs(next - *z);
    *z = next;
  }
  return *z * *z;
}

static double primal(double x) {
  double z = 0, d = 0;
  return f(&z, &d, &x);
}

int main(void) {
  double x = 0.3, z = 0, d = 0;
  f(&z, &d, &x);
  double zs = z, want = 2 * zs / (1 + 0.5 * sin(zs));
  double h = 1e-6, fd = (primal(x + h) - primal(x - h)) / (2 * h);
  fz_check("fixed point", zs, 0.5 * cos(zs) + x, 1e-14);
  double dz = 0, dd = 0, dx = 0;
  z = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &d, &dd, enzyme_dup, &x, &dx);
  fz_check("reverse (implicit)", dx, want, 1e-10);
  fz_check("reverse (finite differences)", dx, fd, 1e-6);
  double tz = 0, td = 0, tx = 1;
  z = 0;
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, &z, &tz, enzyme_dup, &d, &td, enzyme_dup, &x,
                              &tx);
  fz_check("forward (implicit)", t, want, 1e-10);
  return fz_finish();
}
