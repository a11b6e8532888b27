// OPT: O0 O2
// An integer argument is constant by default (no marker): x^n by a loop.
#include "fz_test.h"

double powi_loop(double x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; i++) r *= x;
  return r;
}

double mix(int a, double x, long b, double y) { return (double)a * x * y + (double)b * y * y; }

int main(void) {
  fz_seed(8);
  for (int n = 0; n <= 7; n++) {
    double x = fz_uniform(0.5, 1.5);
    double d = __enzyme_autodiff((void *)powi_loop, x, n);
    char what[64];
    snprintf(what, sizeof what, "d(x^%d)/dx", n);
    fz_check(what, d, n == 0 ? 0.0 : n * pow(x, n - 1), 1e-10);
  }
  double x = fz_uniform(-1, 1), y = fz_uniform(-1, 1);
  int a = 3;
  long b = -5;
  fz_grad2 g = __enzyme_autodiff2((void *)mix, a, x, b, y);
  fz_check("dmix/dx", g.d0, a * y, 1e-10);
  fz_check("dmix/dy", g.d1, a * x + 2.0 * b * y, 1e-10);
  return fz_finish();
}
