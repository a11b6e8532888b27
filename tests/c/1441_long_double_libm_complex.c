// OPT: O0 O2
// long double (x86_fp80) kernels beside a double interface: fmal, lgammal, cbrtl, expm1l,
// log1pl, erfcl and a `_Complex long double` exponential, quotient and modulus (cexpl,
// __divxc3, cabsl), differentiated through a `long double *` with a shadow and a double
// scalar. Oracles: central differences of the long double model (h = 1e-7, error ~1e-12),
// forward mode = reverse mode per direction.
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>
long double kern(const long double *x, long double w) {
  long double s = fmal(x[0], w, x[1]);
  s += lgammal(x[2] + 1.5L) * cbrtl(x[3] + 2.0L);
  s += expm1l(x[0] * w) - log1pl(x[1] * x[1]);
  s += erfcl(x[2] * w);
  long double _Complex z = x[0] + I * x[3];
  long double _Complex e = cexpl(z * w) / (z + 2.0L);
  s += creall(e) * cimagl(e) + cabsl(z * z);
  return s;
}
double f(const long double *x, double w) { return (double)kern(x, (long double)w); }
static long double X[5];
static double eval(void *c) { (void)c; return (double)kern(X, X[4]); }
int main(void) {
  long double x0[5] = {0.3L, -0.4L, 0.7L, 0.25L, 1.1L};
  for (int i = 0; i < 5; i++) X[i] = x0[i];
  long double gx[4] = {0};
  double gw = __enzyme_autodiff((void *)f, enzyme_dup, X, gx, (double)X[4]);
  for (int i = 0; i < 5; i++) {
    long double h = 1e-7L;
    long double keep = X[i];
    X[i] = keep + h; long double fp = kern(X, X[4]);
    X[i] = keep - h; long double fm = kern(X, X[4]);
    X[i] = keep;
    double fd = (double)((fp - fm) / (2 * h));
    fz_check(i < 4 ? "d/dx" : "d/dw", i < 4 ? (double)gx[i] : gw, fd, 1e-7);
  }
  for (int j = 0; j < 4; j++) {
    long double tx[4] = {0}; tx[j] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, X, tx, (double)X[4], 0.0);
    fz_check("fwd = rev", t, (double)gx[j], 1e-12);
  }
  return fz_finish();
}
