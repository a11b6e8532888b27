// OPT: O0 O2
// Mixing enzyme_out and enzyme_const scalar arguments.
#include "fz_test.h"

double f(double x, double c, double y, double k) { return c * x * x + sin(k) * x * y + y * y * y / c + k; }

int main(void) {
  fz_seed(7);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1, 1), c = fz_uniform(1, 2), y = fz_uniform(-1, 1), k = fz_uniform(0, 3);
    fz_grad2 g = __enzyme_autodiff2((void *)f, enzyme_out, x, enzyme_const, c, enzyme_out, y,
                                    enzyme_const, k);
    fz_check("df/dx", g.d0, 2.0 * c * x + sin(k) * y, 1e-10);
    fz_check("df/dy", g.d1, sin(k) * x + 3.0 * y * y / c, 1e-10);
    /* only one active: plain double return */
    double d = __enzyme_autodiff((void *)f, enzyme_const, x, enzyme_out, c, enzyme_const, y,
                                 enzyme_const, k);
    fz_check("df/dc", d, x * x - y * y * y / (c * c), 1e-10);
  }
  return fz_finish();
}
