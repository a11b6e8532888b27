// OPT: O0 O2
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: C/C++ input
// EXPECT-ERROR: not a string literal
// A number read with sscanf on the differentiated path has derivative zero (tests/cxx/84),
// but only when the format says which arguments receive floats. Here the format is
// chosen at run time, so the call is refused instead of guessed.
#include <stdio.h>

extern double __enzyme_autodiff(void *, ...);

const char *formats[2] = {"%lf", "%d"};
int which = 0;

double f(double x) {
  double s = 0;
  sscanf("2.5", formats[which], &s);
  return s * x * x;
}

int main(void) {
  double d = __enzyme_autodiff((void *)f, 1.5);
  printf("%g\n", d);
  return 0;
}
