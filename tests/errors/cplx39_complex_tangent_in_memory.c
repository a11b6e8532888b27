// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: its tangent for lane 4 must be a value of the same type
// EXPECT-ERROR: past the eighth floating-point register
// EXPECT-ERROR-LINE: HOOK-MARKER
// `enzyme_width, 4` with a `double _Complex` and four complex tangents: ten doubles, but
// the x86-64 ABI has eight SSE registers for a call, so clang passes the fourth tangent
// in memory (`ptr byval({ double, double })`). Reading it is not supported: a clear error
// (pass pointers, `enzyme_dup, &z, dz` with `double _Complex dz[4]`-style shadows, or
// fewer lanes per call).
#include <complex.h>
#include <stdio.h>
extern int enzyme_width;
typedef struct { double _Complex l[4]; } L4;
L4 __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) double _Complex f(double _Complex z) { return z * z; }
int main(void) {
  double _Complex z = 1.0 + 2.0 * I;
  L4 r = __enzyme_fwddiff((void *)f, enzyme_width, 4, z, 1.0 + 0.0 * I, 2.0 * I, // HOOK-MARKER
                          3.0 + 0.0 * I, 4.0 * I);
  printf("%f\n", creal(r.l[3]));
  return 0;
}
