// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: is written to constant (enzyme_const) memory reached through a pointer whose activity is only known at run time, and read back
// Runtime activity's silent-wrong case, decided at run time (issue 16): a callee that is
// not inlined writes values that depend on the inputs through a pointer and reads them
// back; its caller passes either a duplicated scratch buffer or, depending on the data,
// an enzyme_const one. Inside the callee the pointer is only *assumed* to be possibly
// constant, so the store is checked at run time: here the constant buffer is chosen,
// the derivative would be lost (Enzyme's runtime-activity mode silently returns a wrong
// gradient), and the program stops with a message instead.
#include <stdio.h>
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) static double squares(double *p, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    p[i] = x[i] * x[i];
    s += p[(i + n - 1) % n] * x[i];
  }
  return s;
}

__attribute__((noinline)) double f(double *x, double *w, double *y, int mask, int n) {
  double s = 0;
  double *p = w;
  for (int r = 0; r < 2; r++) {
    s += squares(p, x, n);
    p = (mask & (1 << r)) ? y : w;
  }
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0}, w[3] = {0}, dw[3] = {0}, y[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, y,
                    enzyme_const, 1, enzyme_const, 3);
  printf("not reached: %g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}
