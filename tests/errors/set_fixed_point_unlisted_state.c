// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: reads and writes through its pointer argument
// EXPECT-ERROR: neither a state nor a region
// A loop marked with `__enzyme_set_fixed_point` whose body also iterates memory that is
// not listed as a state (the running sum `acc`, read and written by every iteration):
// the one snapshot of the states would not hold it, and the adjoint iterated there
// would be wrong. The outlined loop gets `__enzyme_fixed_point`'s error asking to list it.
#include <enzyme/fixed_point.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double f(double *z, double *acc, const double *x) {
  int more;
  do {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof(double));
    double next = 0.5 * cos(*z) + *x;
    *acc += next;
    more = fabs(next - *z) > 1e-14;
    *z = next;
  } while (more);
  return *z + *acc;
}

int main(void) {
  double z = 0, dz = 0, acc = 0, dacc = 0, x = 0.3, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &acc, &dacc, enzyme_dup, &x, &dx);
  printf("%g\n", dx);
  return 0;
}
