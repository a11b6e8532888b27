// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: mismatched activity
// EXPECT-ERROR: enzyme_dup
// At -O2, `cos(c ? y[k] : x[k])` becomes one load through `select c, &y[k], &x[k]`. With y
// marked enzyme_const and x enzyme_dup, the pointer is differentiable or not depending on
// run-time data; derivatives through the constant side have nowhere to go. Enzyme calls
// this mismatched activity; the tool must refuse rather than send them to the wrong place.
#include <math.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double f(double *x, const double *y, int n, double a) {
  double s = 0;
  for (int k = 0; k < n; k++) s += cos(a * k > 0.5 ? y[k] : x[k]) * (k + 1);
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4] = {0.1, 0.9, 0.2, 0.8};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, 4, enzyme_const, 0.3);
  return 0;
}
