// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: mismatched activity: a value that depends on differentiable inputs is written to memory without a shadow (argument 2
// EXPECT-ERROR-LINE: STORE-MARKER
// EXPECT-ERROR-LINE: CALLEE-MARKER
// An intermediate value kept in an enzyme_const scratch buffer and read back, by the
// function itself (f; the printf keeps LLVM from forwarding the value at -O2) or by a
// function it calls (g): the derivative through the buffer was silently lost, in both
// modes (issue 17's audit).
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
__attribute__((noinline)) double twice(const double *t) { return t[0] * 2; }
double f(double *x, double *tmp) {
  tmp[0] = x[0] * x[0]; // STORE-MARKER
  printf("stored %g\n", tmp[0]);
  return tmp[0] * 2;
}
double g(double *x, double *tmp) {
  tmp[0] = x[0] * x[0]; // CALLEE-MARKER
  return twice(tmp);
}
int main(void) {
  double x[1] = {3}, dx[1] = {0}, t[1], tx[1] = {1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, t);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, t);
  return (int)__enzyme_fwddiff((void *)g, enzyme_dup, x, tx, enzyme_const, t);
}
