// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_autodiff` is used as a value
// An entry point called through a function pointer is not a call the pass can replace:
// it used to reach the linker as an undefined `__enzyme_autodiff` (issue 17's audit).
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double f(double x) { return x * x; }
double (*hook)(void *, ...) = __enzyme_autodiff;
int main(void) {
  printf("%f\n", hook((void *)f, 3.0));
  return 0;
}
