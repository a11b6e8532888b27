// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: enzyme_width must be followed by a constant width between 1 and 64
// EXPECT-ERROR-LINE: HERE
// probe40: a width computed at run time (the derivative's lane count is fixed when it
// is generated).
#include <stdio.h>
extern int enzyme_width, enzyme_dup;
typedef struct { double d[2]; } s2;
extern s2 __enzyme_fwddiff(void *, ...);
double f(const double *x) { return x[0] * x[1]; }
int main(int argc, char **argv) {
  (void)argv;
  double x[2] = {1, 2}, a[2] = {1, 0}, b[2] = {0, 1};
  s2 r = __enzyme_fwddiff((void *)f, enzyme_width, argc + 1, enzyme_dup, x, a, b); // HERE
  printf("%g\n", r.d[0]);
  return 0;
}
