// OPT: O0
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the first argument of `__enzyme_autodiff` is not a function
// The function to differentiate chosen at run time: read from a table inside a loop at
// -O0 (nothing unrolls the loop, so each call's function is only known when it runs).
// Enzyme refuses it the same way ("failed to find fn to differentiate"); a table entry
// at a constant index, or the loop unrolled by -O1 and above, is tests/c/1160.
#include <math.h>
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);

double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }

int main(void) {
  static double (*const table[2])(double) = {sq, cube};
  for (int k = 0; k < 2; k++) printf("%g\n", __enzyme_autodiff((void *)table[k], 0.5));
  return 0;
}
