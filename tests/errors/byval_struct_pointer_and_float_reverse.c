// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: holding floating-point fields
// EXPECT-ERROR: keep only pointers (and integers) in the struct passed by value
// EXPECT-ERROR-LINE: DUP-MARKER
// A struct passed by value in memory (over 16 bytes: byval) holding a pointer AND a
// double, marked enzyme_dup in reverse mode. Its pointer's shadow works as Enzyme treats
// it (tests/c/1181), but the double's adjoint would land in the callee's copy of the
// shadow struct, never in the caller's `ds.scale`: refused, naming the floats (before
// c30 every byval struct was refused, also those holding only pointers).
#include <stdio.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
typedef struct {
  double *v;
  double scale;
  long n;
} scaled;
double scaled_norm(scaled s) {
  double t = 0;
  for (long i = 0; i < s.n; i++) t += s.v[i] * s.v[i];
  return s.scale * t;
}
int main(void) {
  double v[2] = {1, 2}, dv[2] = {0};
  scaled s = {v, 1.5, 2}, ds = {dv, 0, 2};
  __enzyme_autodiff((void *)scaled_norm, enzyme_dup, s, ds); // DUP-MARKER
  printf("%f %f %f\n", dv[0], dv[1], ds.scale);
  return 0;
}
