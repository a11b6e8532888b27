// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: missing shadow for argument 1 of `f`: it is marked enzyme_dup, so its shadow must follow it, but the call passes the next argument (a i32) there
// EXPECT-ERROR: help: pass the shadow buffer right after the pointer
// EXPECT-ERROR-LINE: HERE
// probe40: `enzyme_dup, x, n` for `f(double *x, int n)`: the shadow is left out and the
// next argument follows. The message blamed a struct split into registers by the ABI
// ("cannot be enzyme_dup by value"); one operand per remaining parameter means the
// shadow is missing, and the message now says so.
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
double f(double *x, int n) { return x[0] * x[0] * n; }
int main(void) {
  double x[2] = {1, 2};
  double d = __enzyme_autodiff((void *)f, enzyme_dup, x, 2); // HERE
  printf("%g\n", d);
  return 0;
}
