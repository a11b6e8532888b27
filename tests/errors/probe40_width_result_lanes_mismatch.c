// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `f` returns double; with 3 lane(s) the hook returns 3 floating value(s), but the call's declared return type { double, double } holds 2
// EXPECT-ERROR-LINE: HERE
// probe40: `enzyme_width, 3` with the hook declared to return two lanes.
#include <stdio.h>
extern int enzyme_width, enzyme_dup;
typedef struct { double d[2]; } s2;
extern s2 __enzyme_fwddiff(void *, ...);
double f(const double *x) { return x[0] * x[1]; }
int main(void) {
  double x[2] = {1, 2}, a[2] = {1, 0}, b[2] = {0, 1}, c[2] = {1, 1};
  s2 r = __enzyme_fwddiff((void *)f, enzyme_width, 3, enzyme_dup, x, a, b, c); // HERE
  printf("%g\n", r.d[0]);
  return 0;
}
