// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `enzyme_dup_return` on `f`, which returns double: it asks for the result's shadow, which only forward mode (__enzyme_fwddiff) returns
// EXPECT-ERROR-LINE: HERE
// probe40: enzyme_dup_return is forward mode's (the tangent of a float result, what
// Enzyme's C++ header passes for enzyme::Forward); in reverse mode it is refused, not
// taken for enzyme_active_return.
#include <stdio.h>
extern int enzyme_dup_return;
extern double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
int main(void) {
  double d = __enzyme_autodiff((void *)f, enzyme_dup_return, 3.0); // HERE
  printf("%g\n", d);
  return 0;
}
