// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: is a struct passed by value in memory (byval)
// EXPECT-ERROR-LINE: DUP-MARKER
// EXPECT-ERROR-LINE: LDC-MARKER
// Structs the x86-64 ABI passes in memory (three doubles, a long double _Complex): the
// callee gets a copy, so a shadow passed with enzyme_dup is a copy too and the gradient
// never reached the caller (a silent zero at -O2, issue 17's audit).
#include <complex.h>
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
struct P { double x, y, z; };
double f(struct P p) { return p.x * p.y * p.z; }
long double g(long double _Complex z) { return creall(z) * cimagl(z); }
int main(void) {
  struct P p = {3, 4, 5}, dp = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp); // DUP-MARKER
  printf("%f %f %f\n", dp.x, dp.y, dp.z);
  printf("%f\n", __enzyme_autodiff((void *)g, 3.0L + 4.0L * I)); // LDC-MARKER
  return 0;
}
