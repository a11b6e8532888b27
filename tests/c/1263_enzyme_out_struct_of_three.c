// OPT: O0 O1 O2 O3
// `enzyme_out` of several doubles: __enzyme_autodiff declared to return a struct of
// three doubles (returned through a hidden sret pointer on x86-64) for three active
// scalars of a projectile range function, mixed with an enzyme_const int and an
// enzyme_dup buffer in between; a second hook returning a struct of two doubles for
// a function whose active scalars are separated by a pointer; and the default
// activities (unmarked doubles are enzyme_out). Oracle: analytic partial derivatives.
#include "fz_test.h"

typedef struct { double dv, dang, dh; } d3;
typedef struct { double da, db; } d2;
extern d3 __enzyme_autodiff_s3(void *, ...);
extern d2 __enzyme_autodiff_s2(void *, ...);

/* range of a projectile launched at speed v, angle a, from height h, with g const */
double range(double v, int steps, double a, double *trace, double h) {
  const double g = 9.81;
  double vx = v * cos(a), vy = v * sin(a);
  double t = (vy + sqrt(vy * vy + 2 * g * h)) / g;
  for (int k = 0; k < steps; k++) trace[k] = vx * t * (k + 1) / steps;
  return vx * t + 0.5 * trace[0];
}

double mix(double a, const double *w, double b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * pow(a, i) * exp(-b * i);
  return s;
}

int main(void) {
  double v = 12.0, a = 0.6, h = 1.5, trace[4], dtrace[4] = {0};
  d3 d = __enzyme_autodiff_s3((void *)range, enzyme_out, v, enzyme_const, 4, enzyme_out, a,
                              enzyme_dup, trace, dtrace, enzyme_out, h);
  const double g = 9.81;
  double vx = v * cos(a), vy = v * sin(a), S = sqrt(vy * vy + 2 * g * h), t = (vy + S) / g;
  double R = vx * t; /* result = R + 0.5 * R / 4 = 1.125 R */
  double dt_dvy = (1 + vy / S) / g, dt_dh = 1 / S;
  double dR_dv = cos(a) * t + vx * dt_dvy * sin(a);
  double dR_da = -v * sin(a) * t + vx * dt_dvy * v * cos(a);
  double dR_dh = vx * dt_dh;
  fz_check("d v", d.dv, 1.125 * dR_dv, 1e-12);
  fz_check("d angle", d.dang, 1.125 * dR_da, 1e-12);
  fz_check("d h", d.dh, 1.125 * dR_dh, 1e-12);
  fz_check("trace primal", trace[3], R, 1e-12);
  double w[5] = {1.0, -0.5, 0.25, 2.0, 0.3};
  double A = 0.8, B = 0.3;
  d2 e = __enzyme_autodiff_s2((void *)mix, A, enzyme_const, w, B, enzyme_const, 5);
  double wa = 0, wb = 0;
  for (int i = 0; i < 5; i++) {
    wa += w[i] * (i ? i * pow(A, i - 1) : 0) * exp(-B * i);
    wb += w[i] * pow(A, i) * (-i) * exp(-B * i);
  }
  fz_check("default out a", e.da, wa, 1e-12);
  fz_check("default out b", e.db, wb, 1e-12);
  return fz_finish();
}
