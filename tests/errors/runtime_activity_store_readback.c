// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a value that depends on differentiable inputs is written through a pointer that is constant (enzyme_const) memory or differentiable memory depending on the run
// EXPECT-ERROR-LINE: STORE-MARKER
// Runtime activity's known silent-wrong case (Enzyme documents it for its
// runtime-activity mode): a pointer chosen at run time between enzyme_const and
// duplicated memory, an active value written through it and read back. When the
// constant buffer is chosen, the value's derivative has no shadow to live in and the
// read gives a constant: the gradient would be silently wrong. Ferrozyme refuses it.
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
__attribute__((noinline)) double f(double *x, double *y, int mask, int n) {
  double s = 0;
  double *p = (mask & 1) ? y : x;
  for (int i = 0; i < n; i++) {
    p[i] = x[i] * x[i]; // STORE-MARKER
    printf("stored %g\n", p[i]);
    s += p[i];
    p = (mask & (2 << i)) ? y : x;
  }
  return s;
}
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0}, y[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, 5, enzyme_const, 3);
  printf("%g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}
