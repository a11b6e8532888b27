// OPT: O0 O1 O2 O3
// Constant doubles copied into differentiable memory with memcpy (lowered to integer
// loads/stores at -O2): the copy overwrites x[0..1], so their incoming adjoints must be
// killed, and the constant source gets nothing. Oracle: analytic.
#include "fz_test.h"

double f(double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];   // uses the old x
  memcpy(x, y + 2, 2 * sizeof(double));            // x[0], x[1] <- constants
  for (int i = 0; i < n; i++) s += (i + 1) * x[i]; // uses the new x
  return s;
}

int main(void) {
  fz_seed(138);
  double x[6], x0[6], dx[6], y[6];
  fz_fill(x0, 6, -1, 1);
  fz_fill(y, 6, -1, 1);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, 6);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, 6);
  for (int i = 0; i < 6; i++) fz_check("dx", dx[i], 2 * x0[i] + (i >= 2 ? i + 1 : 0), 1e-12);
  return fz_finish();
}
