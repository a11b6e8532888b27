// OPT: O0 O1 O2 O3
// __enzyme_batch over a function that itself calls __enzyme_fwddiff (the lanes of a
// batched derivative), with enzyme_scalar / enzyme_vector markers, and a batch of a
// function taking a pointer per lane. Oracle: analytic.
#include "fz_test.h"

extern int enzyme_width, enzyme_scalar, enzyme_vector;
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double a, b, c; } b3;
extern b3 __enzyme_batch(void *, ...);
extern b3 __enzyme_batch_p(void *, ...);

double arrhenius(double A, double Ea, double T) { return A * exp(-Ea / (8.314 * T)); }

/* d rate / d T at one temperature */
double drate_dT(double A, double Ea, double T) {
  return __enzyme_fwddiff((void *)arrhenius, enzyme_const, A, enzyme_const, Ea, T, 1.0);
}

double poly_at(const double *coef, double x) {
  return coef[0] + x * (coef[1] + x * coef[2]);
}

int main(void) {
  double A = 2.5e3, Ea = 4.0e4, T[3] = {300, 450, 900};
  b3 r = __enzyme_batch((void *)arrhenius, enzyme_width, 3, enzyme_scalar, A, enzyme_scalar, Ea,
                        enzyme_vector, T[0], T[1], T[2]);
  fz_check("rate lane 0", r.a, arrhenius(A, Ea, T[0]), 1e-14);
  fz_check("rate lane 2", r.c, arrhenius(A, Ea, T[2]), 1e-14);
  b3 d = __enzyme_batch((void *)drate_dT, enzyme_width, 3, enzyme_scalar, A, enzyme_scalar, Ea,
                        enzyme_vector, T[0], T[1], T[2]);
  double got[3] = {d.a, d.b, d.c};
  for (int i = 0; i < 3; i++) {
    double want = arrhenius(A, Ea, T[i]) * Ea / (8.314 * T[i] * T[i]);
    char b[32];
    snprintf(b, sizeof b, "d rate/dT lane %d", i);
    fz_check(b, got[i] / want, 1.0, 1e-12);
  }
  double c0[3] = {1, 2, 3}, c1[3] = {-1, 0.5, 0}, c2[3] = {0, 0, 4};
  b3 p = __enzyme_batch_p((void *)poly_at, enzyme_width, 3, enzyme_vector, c0, c1, c2,
                          enzyme_scalar, 0.5);
  fz_check("poly lane 0", p.a, 1 + 0.5 * 2 + 0.25 * 3, 1e-15);
  fz_check("poly lane 1", p.b, -1 + 0.25, 1e-15);
  fz_check("poly lane 2", p.c, 1.0, 1e-15);
  return fz_finish();
}
