// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `f` returns { double, double }
// EXPECT-ERROR: reverse mode seeds a single float result
// EXPECT-ERROR-LINE: HOOK-MARKER
// A function returning `double _Complex` under __enzyme_autodiff: there is no seed for
// two results, and the derivative used to come out as a silent zero (issue 17's audit).
// Forward mode handles it (tests/c/401_audit_complex.c).
#include <complex.h>
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
double _Complex f(double x) { return x * x + x * I; }
int main(void) {
  printf("%f\n", __enzyme_autodiff((void *)f, 3.0)); // HOOK-MARKER
  return 0;
}
