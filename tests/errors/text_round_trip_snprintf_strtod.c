// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: printed a value that depends on differentiable inputs
// EXPECT-ERROR: silently be zero
// An active value printed into a buffer and parsed back (a way to round to a number of
// digits): formatting and parsing each carry no derivative, so the derivative through the
// round trip came out as 0 without an error (a c29 probe; the true one is 2x here).
// Printing an active value for a log, or parsing a constant string, is still allowed
// (tests/c/301, 907).
#include <stdio.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);

double rounded_square(double x) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.6f", x);
  double y = strtod(buf, NULL);
  return y * y;
}

int main(void) {
  printf("%g\n", __enzyme_autodiff((void *)rounded_square, 1.5));
  return 0;
}
