// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_set_fixed_point`
// EXPECT-ERROR: is not inside a loop
// `__enzyme_set_fixed_point` marks the loop whose body holds it; here it is called in
// straight-line code: there is no loop to iterate to a fixed point. A clear error, never
// a call left for the linker.
#include <enzyme/fixed_point.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double f(double *z, const double *x) {
  __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof(double));
  *z = 0.5 * *z + *x;
  return *z;
}

int main(void) {
  double z = 0, dz = 0, x = 0.3, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &x, &dx);
  printf("%g\n", dx);
  return 0;
}
