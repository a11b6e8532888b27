// OPT: O0 O1 O2 O3
// probe43: root finding inside the differentiated function: Newton on z^3 + p z - q with
// a relative tolerance and `break`, Kepler's equation solved by a `while` on the active
// residual. Oracles: the implicit function theorem (dz/dp = -z / (3z^2 + p), dE/dM =
// 1 / (1 - e cos E), dE/de = sin E / (1 - e cos E)), central differences, forward mode.
// Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
/* Newton inside with tolerance; compare against implicit function theorem */
static double solve_cubic(double p, double q) { /* root of z^3 + p z - q = 0 */
  double z = 1.0;
  for (int it = 0; it < 100; it++) {
    double f = z*z*z + p*z - q, df = 3*z*z + p;
    double dz = f / df; z -= dz;
    if (fabs(dz) < 1e-14 * (1 + fabs(z))) break;
  }
  return z;
}
double root_loss(double p, double q) { double z = solve_cubic(p, q); return z * z + sin(z); }
/* bisection + Newton hybrid with while on active residual */
double kepler(double M, double e) { /* E - e sin E = M */
  double E = M, r;
  while (fabs(r = E - e * sin(E) - M) > 1e-13) E -= r / (1 - e * cos(E));
  return E;
}
double kep_x(const double *x, int n) { (void)n; return cos(kepler(x[0], x[1])) * x[2]; }
int main(void) {
  double p = 1.3, q = 0.7;
  fz_grad2 g = __enzyme_autodiff2((void *)root_loss, p, q);
  double z = solve_cubic(p, q), dl = 2 * z + cos(z), den = 3 * z * z + p;
  fz_check("newton dp (IFT)", g.d0, dl * (-z / den), 1e-10);
  fz_check("newton dq (IFT)", g.d1, dl * (1.0 / den), 1e-10);
  double t = __enzyme_fwddiff((void *)root_loss, p, 1.0, q, 0.0);
  fz_check("newton fwd dp", t, dl * (-z / den), 1e-10);
  double x[3] = {1.1, 0.3, 2.0};
  double E = kepler(x[0], x[1]);
  double dx[3] = {0};
  __enzyme_autodiff((void *)kep_x, enzyme_dup, x, dx, enzyme_const, 3);
  double dEdM = 1 / (1 - x[1] * cos(E)), dEde = sin(E) / (1 - x[1] * cos(E));
  fz_check("kepler dM", dx[0], -sin(E) * dEdM * x[2], 1e-9);
  fz_check("kepler de", dx[1], -sin(E) * dEde * x[2], 1e-9);
  fz_check("kepler dscale", dx[2], cos(E), 1e-12);
  FZ_CHECK_GRAD("kepler", kep_x, x, 3, 1e-6);
  return fz_finish();
}
