// OPT: O0 O1 O2 O3
// Piecewise-linear table interpolation: the index comes from (int)(x*k)
// and floor(); the fractional part carries the derivative. Also fmod,
// ldexp/frexp scaling, copysign, trunc-based rounding, and size_t countdown.
#include "fz_test.h"

static const double tab[11] = {0, 0.3, 1.1, 0.7, -0.2, 0.5, 1.9, 2.2, 1.0, 0.1, -0.4};

double interp(const double *x, int n) {
  double s = 0.0;
  for (size_t i = (size_t)n; i-- > 0;) {
    double u = x[i] * 10.0;
    int k = (int)u;
    double fr = u - (double)k;
    s += tab[k] * (1.0 - fr) + tab[k + 1] * fr;
  }
  return s;
}

double misc(double x, double y) {
  int e;
  double m = frexp(x, &e);          /* x = m 2^e */
  double r = ldexp(m * m, e);        /* m^2 2^e = x*m */
  double f = fmod(y * 7.0, 1.3);     /* slope 7 */
  double fl = floor(x * 3.0) + x;    /* slope 1 */
  return r + f + fl + copysign(x * y, -1.0);
}

int main(void) {
  fz_seed(137);
  double x[8], dx[8], want[8];
  for (int i = 0; i < 8; i++) x[i] = 0.05 + 0.11 * i + 0.013; /* away from grid points */
  fz_zero(dx, 8);
  __enzyme_autodiff((void *)interp, enzyme_dup, x, dx, enzyme_const, 8);
  for (int i = 0; i < 8; i++) {
    int k = (int)(x[i] * 10.0);
    want[i] = 10.0 * (tab[k + 1] - tab[k]);
  }
  fz_check_arr("dinterp", dx, want, 8, 1e-12);

  double xv = 0.77, yv = 0.61; /* x*y > 0, copysign(...,-1) = -x*y */
  fz_grad2 g = __enzyme_autodiff2((void *)misc, xv, yv);
  int e;
  double m = frexp(xv, &e);
  /* r = x*m where m = x 2^-e (constant e locally) -> dr/dx = 2 m */
  fz_check("dmisc/dx", g.d0, 2.0 * m + 1.0 - yv, 1e-12);
  fz_check("dmisc/dy", g.d1, 7.0 - xv, 1e-12);
  return fz_finish();
}
