// OPT: O0 O1 O2 O3
// From random differential testing: SLP vectorization leaves poison lanes (an
// insertelement into <1.0, poison>, a shuffle with a poison mask lane) that the primal
// never reads; the reverse sweep multiplies zero adjoints by them, and 0 * poison was NaN.
#include "fz_test.h"
static void h0(double *p, double *q, double s) {
  double acc = *q;
  for (int k = 0; k < 7; k++) {
    acc += 0.1 * (p[k] * fmin(acc, sin(s)));
  }
  acc *= (1 + 0.1 * sin(p[4] - s));
  *q = acc;
}
double f(double *x, double y) {
  double t2 = atan(y);
  h0(x, &t2, t2);
  return t2;
}
static double X[7];
static double ev(void *c) { double xx[7]; memcpy(xx, X, sizeof xx); return f(xx, *(double *)c); }
int main(void) {
  fz_seed(4);
  fz_fill(X, 7, -1.5, 1.5);
  double y = 0.3, dx[7] = {0}, xs[7];
  memcpy(xs, X, sizeof xs);
  double dy = __enzyme_autodiff((void *)f, enzyme_dup, xs, dx, y);
  fz_check("dy", dy, fz_fd_ptr(ev, &y, &y), 1e-6);
  for (int i = 0; i < 7; i++) { double g = fz_fd_ptr(ev, &y, &X[i]); char b[20]; sprintf(b, "dx[%d]", i); fz_check(b, dx[i], g, 1e-6); }
  return fz_finish();
}
