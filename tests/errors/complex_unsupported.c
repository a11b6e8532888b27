// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: cproj
// EXPECT-ERROR-LINE: HERE
// A <complex.h> function without a differentiable definition (the multiplication,
// division, cexp, clog, csqrt, cpow, the trigonometric/hyperbolic functions and, since
// sweep22, their inverses have one; `cproj` does not) is a clear error naming it.
#include <complex.h>
extern double __enzyme_autodiff(void *, ...);

double f(double a, double b) {
  double _Complex z = cproj(a + I * b); // HERE
  return creal(z) * cimag(z);
}

int main(void) {
  double d = __enzyme_autodiff((void *)f, 0.3, 0.4);
  return d > 0;
}
