// OPT: O0 O1 O2 O3
// The derivatives of x / y where |x / y^2| overflows although x / y and the derivative
// asked for are representable (y = 1e-160). `fdiv`'s partial for y, -(x/y)/y, is -inf
// there; with a zero tangent or a zero adjoint reaching it (y's tangent 0 in forward mode,
// a clamp or fmin that passes no adjoint in reverse mode) the product was inf * 0 = NaN
// in a derivative that is 1e160 or 0. Now the seed meets 1/y first (forward: (dx - r dy)
// * (1/y); reverse: x_bar += d/y, y_bar -= r (d/y)). Also large and small y, second
// derivatives by nesting, and enzyme_const y. Oracle: the analytic derivatives (dx/y,
// -x dy/y^2, 2x/y^3, -1/y^2), scaled back by powers of y before comparing.
#include <math.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);



__attribute__((noinline)) static double q(double x, double y) { return x / y; }
static double dq_dx(double x, double y) { return __enzyme_fwddiff((void *)q, x, 1.0, y, 0.0); }
static double dq_dy(double x, double y) { return __enzyme_fwddiff((void *)q, x, 0.0, y, 1.0); }
static double d2q_dy2(double x, double y) { return __enzyme_fwddiff((void *)dq_dy, x, 0.0, y, 1.0); }
static double d2q_dxdy(double x, double y) { return __enzyme_fwddiff((void *)dq_dx, x, 0.0, y, 1.0); }
static double q_const_y(double x, double y) {
  return __enzyme_fwddiff((void *)q, x, 1.0, enzyme_const, y);
}
// min(x / y, 1): no adjoint reaches the quotient once it passes 1.
static double clamped(double x, double y) { return fmin(q(x, y), 1.0); }
static double clamped_branch(double x, double y) {
  double r = q(x, y);
  return r > 1.0 ? 1.0 : r;
}

int main(void) {
  double ys[] = {1e160, 1e-160, 3.0, -2e-155};
  for (int k = 0; k < 4; k++) {
    double y = ys[k];
    fz_check("dq/dx * y", dq_dx(2.0, y) * y, 1.0, 1e-14);
    fz_check("dq/dx * y (y const)", q_const_y(2.0, y) * y, 1.0, 1e-14);
    // -x/y^2 with x = y: -1/y.
    fz_check("dq/dy * y (x = y)", dq_dy(y, y) * y, -1.0, 1e-14);
  }
  double y = 1e80;
  fz_check("d2q/dy2 * y^3", d2q_dy2(1.0, y) * (y * y) * y, 2.0, 1e-13);
  fz_check("d2q/dxdy * y^2", d2q_dxdy(1.0, y) * y * y, -1.0, 1e-13);
  y = 1e-100;
  fz_check("d2q/dxdy * y^2 (small)", d2q_dxdy(1.0, y) * y * y, -1.0, 1e-13);
  // Reverse: past the clamp both partial derivatives are 0, at the tiny y too.
  double ys2[] = {1e-160, 0.5, 1e-300};
  for (int k = 0; k < 3; k++) {
    fz_grad2 g = __enzyme_autodiff2((void *)clamped, 2.0, ys2[k]);
    fz_check("fmin: d/dx", g.d0, 0.0, 0.0);
    fz_check("fmin: d/dy", g.d1, 0.0, 0.0);
    g = __enzyme_autodiff2((void *)clamped_branch, 2.0, ys2[k]);
    fz_check("branch: d/dx", g.d0, 0.0, 0.0);
    fz_check("branch: d/dy", g.d1, 0.0, 0.0);
  }
  // Below the clamp: 1/y and -x/y^2.
  fz_grad2 g = __enzyme_autodiff2((void *)clamped, 0.5, 4.0);
  fz_check("fmin below: d/dx", g.d0, 0.25, 1e-15);
  fz_check("fmin below: d/dy", g.d1, -0.5 / 16.0, 1e-15);
  return fz_finish();
}
