// OPT: O0 O1 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
// EXPECT-ERROR-LINE: CAST-MARKER
// Address arithmetic through uintptr_t that intptr.rs does not rebuild: rounding an
// argument's address up to 16. The argument's shadow comes from the caller and need not
// share the primal's misalignment, so the rounded shadow would be off by up to 8 bytes
// (a wrong derivative, or a fault in an aligned vector load). Before issue 17's audit,
// d/dx was a silent zero in both modes. (`(uintptr_t)x + 8` alone is supported now:
// tests/c/640.)
#include <stdint.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double f(double *x) {
  double *q = (double *)(((uintptr_t)x + 15) & ~(uintptr_t)15); // CAST-MARKER
  return q[0] * x[0];
}
int main(void) {
  double x[4] = {3, 4, 5, 6}, dx[4] = {0}, tx[4] = {0, 1, 1, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
}
