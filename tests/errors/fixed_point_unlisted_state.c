// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: reads and writes through its pointer argument #2
// EXPECT-ERROR: neither a state nor a region
// `__enzyme_fixed_point` whose step also iterates memory that is not listed as a state
// (the running sum `acc`, read and written by every step): the one snapshot of the
// states would not hold it, and the adjoint iterated at that snapshot would be wrong.
// A clear error asking to list it, never a wrong derivative.
#include <enzyme/fixed_point.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static int step(int64_t i, double *z, double *acc, const double *x) {
  double next = 0.5 * cos(*z) + *x;
  *acc += next;
  int more = fabs(next - *z) > 1e-14 && i < 200;
  *z = next;
  return more;
}

double f(double *z, double *acc, const double *x) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)sizeof(double), z, acc, x);
  return *z + *acc;
}

int main(void) {
  double z = 0, dz = 0, acc = 0, dacc = 0, x = 0.3, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &acc, &dacc, enzyme_dup, &x, &dx);
  printf("%g\n", dx);
  return 0;
}
