// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: mismatched activity: argument 2 of the function (enzyme_const), which has no shadow, is stored into memory that has one
// EXPECT-ERROR-LINE: STORE-MARKER
// An enzyme_const pointer kept in a struct that also holds a differentiable pointer (a
// "context" struct), read back by a callee: the pointer read back looked as if it had a
// shadow, whose value was null, and the derivative crashed writing to address 0 + 8
// (SIGSEGV at -O0 and -O2). A C++ lambda capturing a const parameter by reference does
// the same at -O0 (difftest C++ seed 62). Supporting it needs run-time activity for
// pointers read from memory; until then it is refused.
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
struct ctx { const double *y; double *x; };
__attribute__((noinline)) static double use(struct ctx *c) { return c->x[0] * c->y[0]; }
double f(double *x, const double *y) {
  struct ctx c = {y, x}; // STORE-MARKER
  return use(&c) + y[1] * x[1];
}
int main(void) {
  double x[2] = {1, 2}, dx[2] = {0}, y[2] = {3, 4};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y);
  printf("%g %g\n", dx[0], dx[1]);
  return 0;
}
