// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the program defines `enzymeLogGrad`
// EXPECT-ERROR: Ferrozyme never calls it
// A program that defines Enzyme's gradient-logging hook `enzymeLogGrad` expects Enzyme
// to call it with every adjoint (found by sweep2: Enzyme's logger.cpp counts the calls).
// Ferrozyme does not, so the program's log would silently stay empty: refused at compile
// time, naming the function.
#include <stdio.h>

extern double __enzyme_autodiff(void *, ...);

int calls = 0;

void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module,
                   const char *function, unsigned block, unsigned inst) {
  ++calls;
  printf("%g %s\n", grad, opcode);
}

double f(double x) { return x * x * 3.0; }

int main(void) {
  double d = __enzyme_autodiff((void *)f, 2.0);
  printf("%g %d\n", d, calls);
  return 0;
}
