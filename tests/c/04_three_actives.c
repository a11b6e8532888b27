// OPT: O0 O2
// Three active scalars: the derivative struct of 3 doubles is returned via a
// hidden sret pointer on x86-64.
#include "fz_test.h"

double f(double x, double y, double z) { return x * y * z + x * x / z - y * (z - x) + 4.0; }

static double ex, ey, ez;
static double f_ctx(void *c) { (void)c; return f(ex, ey, ez); }

int main(void) {
  fz_seed(4);
  for (int t = 0; t < 4; t++) {
    ex = fz_uniform(-2.0, 2.0);
    ey = fz_uniform(-2.0, 2.0);
    ez = fz_uniform(0.5, 3.0);
    fz_grad3 g = __enzyme_autodiff3((void *)f, ex, ey, ez);
    double x = ex, y = ey, z = ez;
    fz_check("df/dx", g.d0, y * z + 2.0 * x / z + y, 1e-10);
    fz_check("df/dy", g.d1, x * z - (z - x), 1e-10);
    fz_check("df/dz", g.d2, x * y - x * x / (z * z) - y, 1e-10);
    fz_check("df/dx fd", g.d0, fz_fd_ptr(f_ctx, 0, &ex), 1e-6);
    fz_check("df/dy fd", g.d1, fz_fd_ptr(f_ctx, 0, &ey), 1e-6);
    fz_check("df/dz fd", g.d2, fz_fd_ptr(f_ctx, 0, &ez), 1e-6);
  }
  /* marker form: enzyme_out on all three */
  fz_grad3 g = __enzyme_autodiff3((void *)f, enzyme_out, 1.5, enzyme_out, -0.5, enzyme_out, 2.0);
  fz_check("df/dx marked", g.d0, -0.5 * 2.0 + 2.0 * 1.5 / 2.0 - 0.5, 1e-10);
  fz_check("df/dy marked", g.d1, 1.5 * 2.0 - (2.0 - 1.5), 1e-10);
  fz_check("df/dz marked", g.d2, 1.5 * -0.5 - 1.5 * 1.5 / 4.0 + 0.5, 1e-10);
  return fz_finish();
}
