// OPT: O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: floating-point data crosses this call inside integers
// EXPECT-ERROR-LINE: CALL-MARKER
// A struct of floats and ints passed by value to a helper that is not inlined travels in
// two i64 registers on x86-64; the helper's derivative treated them as constants, so
// d/dx of the floats inside was silently dropped (difftest C seed 73 at -O0, reduced).
// At -O0 the call is now inlined into the clone and differentiated (tests/c/1398); at
// -O2 the optimizer builds the integers from the floats' bits and the caller loads x's
// floats as `i32`s, which stays refused.
#include <stdio.h>
extern float __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
struct S { int k; float v; float w; int j; };
__attribute__((noinline)) static struct S mix(struct S s, float t) {
  s.v = s.v * 0.5f + t * s.w;
  return s;
}
float f(float *x, float a) {
  struct S st = {1, x[0], x[1], 4};
  st = mix(st, a); // CALL-MARKER
  return st.v * 3.0f + st.w;
}
int main(void) {
  float x[2] = {1, 2}, dx[2] = {0, 0};
  float da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 0.5f);
  printf("%g %g %g (want 1.5 2.5 6)\n", dx[0], dx[1], da);
  return 0;
}
