// OPT: O0 O1 O2 O3
// An active global array (gets a shadow): a helper reads it nonlinearly,
// the top-level function then overwrites it, calls the helper again; the
// global's derivative flows to the argument.
#include "fz_test.h"

double gstate[4];

__attribute__((noinline)) double energy(void) {
  double e = 0;
  for (int i = 0; i < 4; i++) e += gstate[i] * gstate[i] * gstate[i];
  return e;
}

double f(double a, double b) {
  for (int i = 0; i < 4; i++) gstate[i] = a * (i + 1) + b;
  double e = energy();
  for (int i = 0; i < 4; i++) gstate[i] = sin(gstate[i]) * b;
  e += energy();
  return e;
}

int main(void) {
  double a = 0.3, b = 0.7;
  fz_grad2 g = __enzyme_autodiff2((void *)f, a, b);
  double wa = 0, wb = 0;
  for (int i = 0; i < 4; i++) {
    double s = a * (i + 1) + b, t = sin(s) * b;
    wa += 3 * s * s * (i + 1) + 3 * t * t * cos(s) * b * (i + 1);
    wb += 3 * s * s + 3 * t * t * (cos(s) * b + sin(s));
  }
  fz_check("da", g.d0, wa, 1e-12);
  fz_check("db", g.d1, wb, 1e-12);
  return fz_finish();
}
