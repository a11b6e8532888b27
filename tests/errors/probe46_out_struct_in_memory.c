// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: is marked enzyme_out, but it is a struct passed by value in memory (byval)
// EXPECT-ERROR: pass a pointer to it
// probe46: enzyme_out on a struct of three doubles passed by value: x86-64 passes it in
// memory (the callee gets a pointer to a copy), so there is no float whose adjoint the hook
// could return. A struct of two doubles travels in registers and works (tests/c/1524).
#include "../c/fz_test.h"
typedef struct { double x, y, z; } V3;
extern V3 __enzyme_autodiff_v3(void *, ...);
__attribute__((noinline)) static double f(V3 v) { return v.x * v.y + v.z; }
int main(void) {
  V3 v = {1, 2, 3};
  V3 g = __enzyme_autodiff_v3((void *)f, enzyme_out, v);
  printf("%g\n", g.x);
  return 0;
}
