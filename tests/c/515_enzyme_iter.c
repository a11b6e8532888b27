// OPT: O0 O2 O3
// Enzyme's `__enzyme_iter(n, k)`: n in the program as written, n + k in each derivative
// (every differentiation of a function adds k again). A Taylor polynomial of sin whose
// length is __enzyme_iter(12, 1) keeps one more term per derivative, so its first
// derivative is exactly the cosine polynomial of the same accuracy and its second
// (forward over reverse) exactly minus the sine polynomial the primal computes. It was
// refused as "not supported". Oracles: the truncated series written out with the expected
// lengths (analytic), and the true sin/cos to the series' accuracy.
#include <stdint.h>

#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
uint64_t __enzyme_iter(uint64_t, uint64_t);

__attribute__((noinline)) static double factorial(uint64_t n) {
  double r = 1;
  for (uint64_t i = 2; i <= n; i++)
    r *= (double)i;
  return r;
}

double taylor_sin(double x) {
  double s = 0;
  uint64_t n = __enzyme_iter(12, 1);
  for (uint64_t i = 1; i <= n; i += 2)
    s += pow(x, (double)i) / factorial(i) * (i % 4 == 1 ? 1 : -1);
  return s;
}

double d_taylor_sin(double x) { return __enzyme_autodiff((void *)taylor_sin, x); }

// sum over odd i <= n of the series' d-th derivative (written out: the oracle)
static double series(double x, int n, int d) {
  double s = 0;
  for (int i = 1; i <= n; i += 2) {
    if (i < d)
      continue;
    double c = (i % 4 == 1 ? 1 : -1);
    for (int j = 0; j < d; j++)
      c *= (double)(i - j);
    s += c * pow(x, (double)(i - d)) / factorial((uint64_t)i);
  }
  return s;
}

int main(void) {
  const double xs[] = {0.4, 1.23, -2.0};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    fz_check("primal: 12 terms", taylor_sin(x), series(x, 12, 0), 1e-15);
    fz_check("first derivative: 13 terms", d_taylor_sin(x), series(x, 13, 1), 1e-14);
    fz_check("first derivative ~ cos", d_taylor_sin(x), cos(x), 1e-6);
    fz_check("second derivative (forward over reverse): 14 terms",
             __enzyme_fwddiff((void *)d_taylor_sin, x, 1.0), series(x, 14, 2), 1e-13);
    fz_check("second derivative = -primal series", __enzyme_fwddiff((void *)d_taylor_sin, x, 1.0),
             -taylor_sin(x), 1e-13);
  }
  return fz_finish();
}
