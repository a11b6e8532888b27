// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: the shadow of argument 1 of `chain` is the argument itself
// EXPECT-ERROR: pass a separate buffer
// EXPECT-ERROR-LINE: CALL-MARKER
// `enzyme_dup, p, p`: the derivative was added into the input itself, and the reverse
// sweep re-reads x[i] after x[i] received its adjoint: x = {1, 2, 3} came out
// {6, 6, 5} at -O0 ({3, 6, 5}, x + grad, at -O2): silently meaningless. Now a
// compile-time error at -O0 (two loads of one variable) and -O2 (one value).
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

double chain(double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += x[i] * x[i + 1];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3};
  double *p = x;
  __enzyme_autodiff((void *)chain, enzyme_dup, p, p, enzyme_const, 3); // CALL-MARKER
  printf("%g %g %g\n", x[0], x[1], x[2]);
  return 0;
}
