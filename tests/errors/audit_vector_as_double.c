// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: the bits of a `double` value are reinterpreted as `<2 x float>`
// An 8-byte vector of floats is passed as one double by the x86-64 ABI: the derivative
// "with respect to the double" meant nothing (issue 17's audit). (`float _Complex` and
// `struct { float x, y; }` come as `<2 x float>` and work: tests/c/401_audit_complex.c.)
#include <stdio.h>
typedef float v2f __attribute__((vector_size(8)));
extern double __enzyme_autodiff(void *, ...);
float f(v2f v) { return v[0] * v[1]; }
int main(void) {
  v2f v = {3, 4};
  printf("%f\n", __enzyme_autodiff((void *)f, v));
  return 0;
}
