// OPT: O0 O1 O2 O3
// Unions viewing the same doubles two ways (`union { double v[2]; struct { double re,
// im; } c; }`, written through one member and read through the other), an array of such
// unions, a `static` call counter inside the differentiated function (integer state
// that survives calls: the derivative code must bump it exactly once per call), and
// enzyme_out scalars returned per call in a loop over parameter sets. Oracle: analytic.
#include "fz_test.h"

typedef union {
  double v[2];
  struct {
    double re, im;
  } c;
} cplx;

static int calls;

double rotate_energy(double re, double im, double theta) {
  static int seen;
  seen++;
  calls = seen;
  cplx z[3];
  z[0].v[0] = re;
  z[0].v[1] = im;
  for (int k = 1; k < 3; k++) {
    double cs = cos(k * theta), sn = sin(k * theta);
    z[k].c.re = cs * z[0].c.re - sn * z[0].c.im;
    z[k].c.im = sn * z[0].c.re + cs * z[0].c.im;
  }
  double s = 0;
  for (int k = 0; k < 3; k++) s += (k + 1) * (z[k].v[0] * z[k].v[0] - 0.5 * z[k].v[1]);
  return s;
}

int main(void) {
  char nm[48];
  for (int p = 0; p < 4; p++) {
    double re = 0.3 + 0.2 * p, im = -0.5 + 0.3 * p, th = 0.4 + 0.1 * p;
    fz_grad3 g = __enzyme_autodiff3((void *)rotate_energy, re, im, th);
    double wre = 0, wim = 0, wth = 0;
    for (int k = 0; k < 3; k++) {
      double cs = cos(k * th), sn = sin(k * th);
      double x = cs * re - sn * im, y = sn * re + cs * im;
      double dxdth = -k * y, dydth = k * x;
      wre += (k + 1) * (2 * x * cs - 0.5 * sn);
      wim += (k + 1) * (2 * x * -sn - 0.5 * cs);
      wth += (k + 1) * (2 * x * dxdth - 0.5 * dydth);
    }
    snprintf(nm, sizeof nm, "set %d d/dre", p);
    fz_check(nm, g.d0, wre, 1e-13);
    snprintf(nm, sizeof nm, "set %d d/dim", p);
    fz_check(nm, g.d1, wim, 1e-13);
    snprintf(nm, sizeof nm, "set %d d/dtheta", p);
    fz_check(nm, g.d2, wth, 1e-13);
    snprintf(nm, sizeof nm, "set %d call counter", p);
    fz_check(nm, calls, p + 1, 0);
  }
  return fz_finish();
}
