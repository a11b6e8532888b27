// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: enzymeLogGrad
// EXPECT-ERROR: Ferrozyme never calls it
// Enzyme's gradient-logging hook defined in C++ (so its symbol is mangled): refused at
// compile time as in enzyme_log_grad_hook.c (found by sweep2: Enzyme's
// logger.cpp).
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);

int calls = 0;

void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module,
                   const char *function, unsigned block, unsigned inst) {
  ++calls;
  std::printf("%g %s\n", grad, opcode);
}

double f(double x) { return x * x * 3.0; }

int main() {
  double d = __enzyme_autodiff((void *)f, 2.0);
  std::printf("%g %d\n", d, calls);
  return 0;
}
