// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `__enzyme_autodiff` is defined in this module
// A fallback definition of the entry point (for builds without AD) silently ran instead
// of a derivative and returned 0 (issue 17's audit).
#include <stdio.h>
__attribute__((weak)) double __enzyme_autodiff(void *f, ...) { (void)f; return 0; }
double f(double x) { return x * x; }
int main(void) {
  printf("%f\n", __enzyme_autodiff((void *)f, 3.0));
  return 0;
}
