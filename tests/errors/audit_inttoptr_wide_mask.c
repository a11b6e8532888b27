// OPT: O0 O1 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer rebuilt from an integer (`inttoptr`)
// EXPECT-ERROR-LINE: CAST-MARKER
// Near miss of tests/c/640's aligned scratch area: rounded up to 64 bytes. The shadow
// allocation (calloc) is only known to be 16-byte aligned, so the rounded shadow need
// not be the rounded primal's mirror: intptr.rs keeps the inttoptr and the audit rejects it.
#include <stdint.h>
#include <stdlib.h>
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;
double f(double *x) {
  char *raw = (char *)malloc(4 * sizeof(double) + 63);
  double *buf = (double *)(((uintptr_t)raw + 63) & ~(uintptr_t)63); // CAST-MARKER
  for (int i = 0; i < 4; i++) buf[i] = x[i] * x[i];
  double s = buf[0] * buf[3] + buf[1] * buf[2];
  free(raw);
  return s;
}
int main(void) {
  double x[4] = {3, 4, 5, 6}, dx[4] = {0}, tx[4] = {0, 1, 1, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
}
