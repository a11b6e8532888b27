// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_set_fixed_point`
// EXPECT-ERROR: from one iteration to the next in a register
// A marked fixed-point loop whose iterate is a local scalar `s` (a register once in SSA
// form) while the state it lists is other memory: the step outlined from the body could
// not carry `s` from one iteration to the next, and the snapshot would not hold it. A
// clear error asking to keep the state in memory listed with enzyme_fp_state.
#include <enzyme/fixed_point.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

double f(double *z, const double *x) {
  double s = 0;
  int more;
  do {
    __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)sizeof(double));
    double next = 0.5 * cos(s) + *x;
    more = fabs(next - s) > 1e-14;
    s = next;
    *z = s;
  } while (more);
  return *z;
}

int main(void) {
  double z = 0, dz = 0, x = 0.3, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &z, &dz, enzyme_dup, &x, &dx);
  printf("%g\n", dx);
  return 0;
}
