// OPT: O0
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_set_fixed_point`
// EXPECT-ERROR: leaves its body before the end of an iteration
// A marked fixed-point loop that tests for convergence at the top of its body
// (`while (d > tol) { ... }`): the last pass through the body stops at the test, before
// the update, so one outlined iteration is not z = phi(z, x) at the converged state and
// the derivative applied there would be wrong. A clear error asking for the test at the
// end of the body. (At -O2 LLVM rotates the loop into a guarded do-while, whose body
// ends with the test: that loop is outlined and differentiated, tests/c/1061.)
#include <enzyme/fixed_point.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double f(double *z, double *d, const double *x) {
  *d = 1;
  while (*d > 1e-14) {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof(double), enzyme_fp_state, d,
                             (int64_t)sizeof(double));
    double next = 0.5 * cos(*z) + *x;
    *d = fabs(next - *z);
    *z = next;
  }
  return *z;
}

int main(void) {
  double z = 0, dz = 0, d = 0, dd = 0, x = 0.3, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &d, &dd, enzyme_dup, &x, &dx);
  printf("%g\n", dx);
  return 0;
}
