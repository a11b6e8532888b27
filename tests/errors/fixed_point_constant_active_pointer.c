// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: takes its pointer argument #2
// EXPECT-ERROR: in function `f`
// EXPECT-ERROR: enzyme_dup with a zero shadow
// `__enzyme_fixed_point` called from a derivative where the step's coefficients `a` are
// `enzyme_const`, while the step differentiates through them (they multiply the state):
// the loop's derivative functions take a shadow after every pointer and the caller has
// none to give. A clear error naming the step's argument, not a crash writing through a
// null shadow (a pointer the step only compares, like a tolerance, is accepted: c/859).
#include <enzyme/fixed_point.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static int step(int64_t i, double *z, const double *a) {
  double next = 0.5 * cos(a[0] * *z) + a[1];
  int more = fabs(next - *z) > 1e-14 && i < 200;
  *z = next;
  return more;
}

double f(double *z, const double *a) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)sizeof(double), z, a);
  return *z;
}

int main(void) {
  double z = 0, dz = 0, a[2] = {0.7, 0.2};
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_const, a);
  printf("%g\n", dz);
  return 0;
}
