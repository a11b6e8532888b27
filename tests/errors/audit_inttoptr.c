// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
// EXPECT-ERROR-LINE: CAST-MARKER
// Address arithmetic through uintptr_t: the rebuilt pointer had no shadow and d/dx[1]
// was a silent zero in both modes (issue 17's audit).
#include <stdint.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double f(double *x) {
  double *q = (double *)((uintptr_t)x + 8); // CAST-MARKER
  return q[0] * x[0];
}
int main(void) {
  double x[2] = {3, 4}, dx[2] = {0, 0}, tx[2] = {0, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
}
