// OPT: O0 O2 O3
// Vector forward mode on scalar arguments: enzyme_width 2 with
// `enzyme_dup, x, dx1, dx2` (unit tangents -> the gradient in one call),
// width 3 (result struct returned through sret) with random directions,
// and an enzyme_const scalar. Each lane is checked against a scalar
// forward call and against the analytic gradient / finite differences.
#include "fz_test.h"
#include "fz_modes.h"

double f(double x, double y, double c) { return x * x * y + sin(x * y) + c * exp(0.3 * y); }

static double Y, C;
static double e_x(double x) { return f(x, Y, C); }
static double e_y(double y) { return f(Y, y, C); } /* used with Y holding x */

int main(void) {
  fz_seed(220);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1.5, 1.5), y = fz_uniform(-1.5, 1.5), c = fz_uniform(0.5, 2);
    double gx = 2 * x * y + y * cos(x * y), gy = x * x + x * cos(x * y) + 0.3 * c * exp(0.3 * y);
    Y = y, C = c;
    double fdx = fz_fd1(e_x, x);
    Y = x;
    double fdy = fz_fd1(e_y, y);
    fz_v2 g = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x, 1.0, 0.0, enzyme_dup, y,
                                  0.0, 1.0, enzyme_const, c);
    fz_mcheck2("lane0 = df/dx", g.d[0], gx, 1e-12, fdx, 1e-6);
    fz_mcheck2("lane1 = df/dy", g.d[1], gy, 1e-12, fdy, 1e-6);
    double s0 = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0, enzyme_const, c);
    double s1 = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0, enzyme_const, c);
    fz_mcheck("lane0 vs scalar mode", g.d[0], s0, 1e-14);
    fz_mcheck("lane1 vs scalar mode", g.d[1], s1, 1e-14);

    /* width 3, random directions in (x, y), c const */
    double dx[3], dy[3];
    fz_fill(dx, 3, -1, 1);
    fz_fill(dy, 3, -1, 1);
    fz_v3 h = __enzyme_fwddiff_v3((void *)f, enzyme_width, 3, enzyme_dup, x, dx[0], dx[1], dx[2],
                                  enzyme_dup, y, dy[0], dy[1], dy[2], enzyme_const, c);
    for (int l = 0; l < 3; l++) {
      double s = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx[l], enzyme_dup, y, dy[l], enzyme_const, c);
      fz_mcheck2("width3 lane (analytic, fd)", h.d[l], gx * dx[l] + gy * dy[l], 1e-12,
                 fdx * dx[l] + fdy * dy[l], 1e-6);
      fz_mcheck("width3 lane vs scalar mode", h.d[l], s, 1e-14);
    }
    /* reverse oracle for the gradient */
    fz_grad2 r = __enzyme_autodiff2((void *)f, x, y, enzyme_const, c);
    fz_check("rev df/dx", r.d0, gx, 1e-12);
    fz_check("rev df/dy", r.d1, gy, 1e-12);
  }
  return fz_finish();
}
