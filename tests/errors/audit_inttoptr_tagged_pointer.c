// OPT: O0 O1 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
// EXPECT-ERROR-LINE: CAST-MARKER
// A tagged pointer: the low bit of a pointer into the differentiable input set and
// cleared again through `uintptr_t` (sweep19). Before, the shadow of `&x[1]` was pruned
// as unneeded (only a `ptrtoint` used it), the audit then saw an integer from a pointer
// without a shadow and passed: d/dx[1] was 0 instead of 2 x[1] at every level, a silent
// wrong gradient. The shadow of a pointer whose bits are made a pointer again is kept
// now, so the audit refuses it.
#include <stdint.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
__attribute__((noinline)) double f(double *x) {
  uintptr_t slot = (uintptr_t)&x[1] | 1;
  double *p = (double *)(slot & ~(uintptr_t)1); // CAST-MARKER
  return p[0] * p[0];
}
int main(void) {
  double x[2] = {1.5, 2.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return (int)dx[1];
}
