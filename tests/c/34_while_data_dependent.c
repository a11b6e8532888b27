// OPT: O0 O2
// Loops whose trip count depends on the (active) data: halving until below a
// threshold, and Newton iterations for sqrt until converged. Inputs are
// chosen so a tiny perturbation does not change the trip count.
#include "fz_test.h"

double halve(double x) {
  double acc = 0.0;
  while (x > 1.0) {
    x *= 0.5;
    acc += x * x;
  }
  return acc + x;
}

/* Newton iteration for sqrt(a) with a fixed iteration-count guard; the
   derivative of the converged fixed point is 1/(2 sqrt a) -- the iterates'
   derivative converges to it too. */
double newton_sqrt(double a) {
  double y = a > 1.0 ? a : 1.0;
  int it = 0;
  while (it < 60) {
    double yn = 0.5 * (y + a / y);
    if (fabs(yn - y) < 1e-15 * yn) { y = yn; break; }
    y = yn;
    it++;
  }
  return y;
}

int main(void) {
  const double xs[] = {37.3, 5.9, 1.5, 0.7, 200.1};
  for (int t = 0; t < 5; t++) {
    volatile double vx = xs[t];
    double x = vx;
    double d = __enzyme_autodiff((void *)halve, x);
    /* k halvings with x/2^k <= 1: acc = sum_{j=1..k} x^2/4^j, plus x/2^k */
    int k = 0;
    double y = x;
    while (y > 1.0) y *= 0.5, k++;
    double want = 1.0 / ldexp(1.0, k);
    for (int j = 1; j <= k; j++) want += 2.0 * x / ldexp(1.0, 2 * j);
    fz_check("dhalve analytic", d, want, 1e-10);
    fz_check("dhalve fd", d, fz_fd1(halve, x), 1e-6);
  }
  const double as[] = {2.0, 0.3, 17.5, 1e4};
  for (int t = 0; t < 4; t++) {
    volatile double va = as[t];
    double a = va;
    double d = __enzyme_autodiff((void *)newton_sqrt, a);
    fz_check("dnewton_sqrt", d, 0.5 / sqrt(a), 1e-9);
  }
  return fz_finish();
}
