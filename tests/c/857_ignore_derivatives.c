// OPT: O0 O1 O2 O3
// `__enzyme_ignore_derivatives(x)`: `x` with no derivative (a stop-gradient), as Enzyme
// defines it; refused before the lead's change. A frozen scale, a frozen term of a
// product, and a softmax-style normalisation whose denominator is frozen inside a loop.
// Reverse and forward mode, against the analytic derivatives with the frozen values
// held constant, and the primal value unchanged (the call is the identity there).
#include <math.h>
#include "fz_test.h"

extern double __enzyme_ignore_derivatives(double);
extern double __enzyme_fwddiff(void *, ...);

double frozen(double x, double y) {
  double scale = __enzyme_ignore_derivatives(x * y);
  return scale * x + sin(y) * __enzyme_ignore_derivatives(y);
}

/* sum_i w_i exp(x_i) / Z with Z = sum exp(x_i) frozen */
double normalised(const double *x, const double *w, int n) {
  double z = 0;
  for (int i = 0; i < n; i++) z += exp(x[i]);
  z = __enzyme_ignore_derivatives(z);
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * exp(x[i]) / z;
  return s;
}

int main(void) {
  double x = 0.7, y = -1.3;
  fz_check("primal unchanged", frozen(x, y), x * y * x + sin(y) * y, 1e-15);
  fz_grad2 g = __enzyme_autodiff2((void *)frozen, x, y);
  fz_check("reverse d/dx (x*y frozen)", g.d0, x * y, 1e-13);
  fz_check("reverse d/dy (y frozen in the product)", g.d1, cos(y) * y, 1e-13);
  double tx = 0.5, ty = 2.0;
  double t = __enzyme_fwddiff((void *)frozen, x, tx, y, ty);
  fz_check("forward tangent", t, x * y * tx + cos(y) * y * ty, 1e-13);

  double xs[4] = {0.1, -0.4, 1.2, 0.3}, w[4] = {1.0, -2.0, 0.5, 3.0}, dxs[4] = {0};
  double z = 0;
  for (int i = 0; i < 4; i++) z += exp(xs[i]);
  __enzyme_autodiff((void *)normalised, enzyme_dup, xs, dxs, enzyme_const, w, enzyme_const, 4);
  for (int i = 0; i < 4; i++)
    fz_check("reverse d/dx_i with Z frozen", dxs[i], w[i] * exp(xs[i]) / z, 1e-13);
  return fz_finish();
}
