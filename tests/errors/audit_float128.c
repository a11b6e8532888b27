// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: argument 1 of `f` has type fp128 (C `__float128`)
// EXPECT-ERROR-LINE: HOOK-MARKER
// __float128 at the hook boundary used to give a silent zero (issue 17's audit).
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
__float128 f(__float128 x) { return x * x; }
int main(void) {
  printf("%f\n", __enzyme_autodiff((void *)f, (__float128)3.0)); // HOOK-MARKER
  return 0;
}
