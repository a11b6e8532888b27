// OPT: O0 O1 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
// EXPECT-ERROR-LINE: CAST-MARKER
// Near miss of tests/c/640's pointer difference added back: the difference is between
// two different arrays (y - z), so which object x + (y - z) points into (and so which
// shadow to offset) is unknown. intptr.rs keeps the inttoptr and the audit rejects it.
#include <stdint.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
__attribute__((noinline)) double f(double *x, double *y, double *z) {
  double *q = (double *)((uintptr_t)x + ((uintptr_t)y - (uintptr_t)z)); // CAST-MARKER
  return q[0] * x[0];
}
int main(void) {
  double x[4] = {3, 4, 5, 6}, dx[4] = {0}, tx[4] = {0, 1, 1, 1};
  double y[2] = {0}, z[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y + 1, enzyme_const, y);
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, z + 1, enzyme_const, z);
}
