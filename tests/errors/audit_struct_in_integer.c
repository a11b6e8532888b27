// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `f` has type i64 but carries floating-point data
// EXPECT-ERROR-LINE: HOOK-MARKER
// `struct { float x; int k; }` passed by value is one i64 on x86-64: unmarked, Enzyme's
// default makes it constant, and d/dx used to be a silent zero (issue 17's audit).
#include <stdio.h>
struct P { float x; int k; };
extern float __enzyme_autodiff(void *, ...);
float f(struct P p) { return p.x * p.x * p.k; }
int main(void) {
  struct P p = {3, 2};
  printf("%f\n", (double)__enzyme_autodiff((void *)f, p)); // HOOK-MARKER
  return 0;
}
