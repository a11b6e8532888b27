// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `f` is a value passed as two registers
// EXPECT-ERROR: its tangent must be a value of the same type
// EXPECT-ERROR-LINE: HOOK-MARKER
// A `double _Complex` passed by value with its tangent written as two doubles (the old
// `re, dre, im, dim` order half applied): through the clang plugin the pass knows `z` is
// one value and wants a `double _Complex` tangent after it. Write `z, dz`, or all four
// parts as doubles: creal(z), creal(dz), cimag(z), cimag(dz).
#include <complex.h>
#include <stdio.h>
double _Complex __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) double _Complex f(double _Complex z) { return z * z; }
int main(void) {
  double _Complex z = 1.0 + 2.0 * I;
  double _Complex r = __enzyme_fwddiff((void *)f, z, 1.0, 0.0); // HOOK-MARKER
  printf("%f\n", creal(r));
  return 0;
}
