// OPT: O0 O2
// Data-dependent if/else branches (piecewise function); inputs kept away
// from the branch boundaries so finite differences see the same branch.
#include "fz_test.h"

double piece(double x, double y) {
  double r;
  if (x > 1.0) {
    r = x * x * y;
  } else if (x > -0.5) {
    r = sin(x) + y * y;
  } else {
    r = exp(x) * y - x;
  }
  if (y < 0.0) r = r * 2.0 + y;
  else r -= x * y;
  return r;
}

static double ex, ey;
static double ctx(void *c) { (void)c; return piece(ex, ey); }

int main(void) {
  const double xs[] = {1.7, 0.3, -1.2, 2.5, -0.1, -3.0};
  const double ys[] = {0.8, -0.6, 1.1, -1.9, 0.4, -0.2};
  for (int t = 0; t < 6; t++) {
    volatile double vx = xs[t], vy = ys[t];
    ex = vx;
    ey = vy;
    fz_grad2 g = __enzyme_autodiff2((void *)piece, ex, ey);
    double x = ex, y = ey, rx, ry;
    if (x > 1.0) rx = 2 * x * y, ry = x * x;
    else if (x > -0.5) rx = cos(x), ry = 2 * y;
    else rx = exp(x) * y - 1.0, ry = exp(x);
    if (y < 0.0) rx = 2 * rx, ry = 2 * ry + 1.0;
    else rx -= y, ry -= x;
    fz_check("dpiece/dx", g.d0, rx, 1e-10);
    fz_check("dpiece/dy", g.d1, ry, 1e-10);
    fz_check("dpiece/dx fd", g.d0, fz_fd_ptr(ctx, 0, &ex), 1e-6);
    fz_check("dpiece/dy fd", g.d1, fz_fd_ptr(ctx, 0, &ey), 1e-6);
  }
  return fz_finish();
}
