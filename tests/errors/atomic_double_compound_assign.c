// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: cmpxchg
// EXPECT-ERROR-LINE: sq += x[i]
// C11 `_Atomic double` updated with `+=`: clang writes a compare-exchange loop on the
// double's bits, which has no derivative rule (atomic float additions written as
// `__atomic_fetch_add` are `atomicrmw fadd` and are differentiated: tests/c/732).
#include <stdatomic.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double weighted(const double *x, int n) {
  _Atomic double sq = 0.0;
  for (int i = 0; i < n; i++) sq += x[i] * (i + 1);
  return atomic_load(&sq);
}

double grad(const double *x, double *dx, int n) {
  return __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, n);
}

int main(void) { return 0; }
