// OPT: O0 O2
// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: `cblas_daxpy` updates memory it also reads (in place)
// EXPECT-ERROR: call __enzyme_fwddiff once per direction
// `cblas_daxpy` (y += a x) in vector forward mode: its forward rule runs once per lane,
// so y was updated twice (7, 13 instead of 5, 9) and the tangents came out 26, 14
// instead of 18, 10: silently wrong until c34. Refused now; `cblas_ddot`, `dnrm2` and
// `dcopy` (no update in place) still run per lane.
#include <cblas.h>

extern int enzyme_width, enzyme_dup;
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

double g(const double *x, double *y) {
  cblas_daxpy(2, 2.0, x, 1, y, 1);
  return y[0] * y[1];
}

int main(void) {
  double x[2] = {1, 2}, y[2] = {3, 5}, a[2] = {1, 0}, b[2] = {0, 1}, ya[2] = {0}, yb[2] = {0};
  v2 r = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, enzyme_dup, x, a, b, enzyme_dup, y, ya, yb);
  return (int)r.d[0];
}
