// OPT: O0 O2
// Two active scalars (fdiv, fneg, fsub); derivatives returned as a struct of 2 doubles.
#include "fz_test.h"

double f(double x, double y) {
  double q = x / y;
  double r = -(x - y) * (y - 2.0 * x);
  return -q + r - (1.0 / (x * y)) - (-y);
}

static double ex, ey;
static double f_ctx(void *c) { (void)c; return f(ex, ey); }

int main(void) {
  fz_seed(2);
  for (int t = 0; t < 5; t++) {
    ex = fz_uniform(0.5, 2.0);
    ey = fz_uniform(0.5, 2.0) * (t % 2 ? -1.0 : 1.0);
    fz_grad2 g = __enzyme_autodiff2((void *)f, ex, ey);
    double x = ex, y = ey;
    /* r = -(x-y)(y-2x) = -(xy - 2x^2 - y^2 + 2xy) = 2x^2 + y^2 - 3xy */
    double dx = -1.0 / y + 4.0 * x - 3.0 * y + 1.0 / (x * x * y);
    double dy = x / (y * y) + 2.0 * y - 3.0 * x + 1.0 / (x * y * y) + 1.0;
    fz_check("df/dx analytic", g.d0, dx, 1e-10);
    fz_check("df/dy analytic", g.d1, dy, 1e-10);
    fz_check("df/dx fd", g.d0, fz_fd_ptr(f_ctx, 0, &ex), 1e-6);
    fz_check("df/dy fd", g.d1, fz_fd_ptr(f_ctx, 0, &ey), 1e-6);
  }
  return fz_finish();
}
