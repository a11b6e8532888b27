// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: argument 1 of `f` has type i128 but carries floating-point data
// EXPECT-ERROR-LINE: HOOK-MARKER
// Two doubles packed into an __int128 (a union passed by value): the floats are hidden
// in an integer argument, whose derivative used to be a silent zero (issue 17's audit).
#include <stdio.h>
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
double f(__int128 v) {
  double d[2];
  memcpy(d, &v, 16);
  return d[0] * d[1];
}
int main(void) {
  double d[2] = {3, 4};
  __int128 v;
  memcpy(&v, d, 16);
  printf("%f\n", __enzyme_autodiff((void *)f, v)); // HOOK-MARKER
  return 0;
}
