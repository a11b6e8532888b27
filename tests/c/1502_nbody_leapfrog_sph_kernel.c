// OPT: O0 O1 O2 O3
// probe43: physics kernels as users write them: an n-body potential with Plummer
// softening (structure of arrays), three leapfrog steps over an array of structs (forces
// recomputed each step, kinetic + potential energy at the end), and an SPH density sum
// through the piecewise cubic-spline kernel (branches on q = r/h, h active) raised to the
// power 1.4. Reverse mode against central differences, forward mode against <gradient,
// v>. Passed as written.
#include "fz_test.h"
#include "fz_grad_check.h"
/* n-body potential energy with Plummer softening + kinetic; SoA layout x[0..3n) pos, masses const */
static const double mass[5] = {1.0, 0.5, 2.0, 0.7, 1.3};
double energy(const double *x, int n) {
  int nb = n / 3; double e = 0;
  for (int i = 0; i < nb; i++)
    for (int j = i + 1; j < nb; j++) {
      double dx = x[3*i] - x[3*j], dy = x[3*i+1] - x[3*j+1], dz = x[3*i+2] - x[3*j+2];
      double r2 = dx*dx + dy*dy + dz*dz + 0.01;
      e -= mass[i] * mass[j] / sqrt(r2);
    }
  return e;
}
/* one leapfrog step with forces, then energy: AoS */
typedef struct { double p[3], v[3]; } body;
double step_energy(const double *x, int n) {
  int nb = n / 3; body b[8];
  for (int i = 0; i < nb; i++) for (int k = 0; k < 3; k++) { b[i].p[k] = x[3*i+k]; b[i].v[k] = 0.1 * k; }
  for (int s = 0; s < 3; s++) {
    double a[8][3] = {{0}};
    for (int i = 0; i < nb; i++) for (int j = 0; j < nb; j++) if (i != j) {
      double d[3], r2 = 0.01;
      for (int k = 0; k < 3; k++) { d[k] = b[j].p[k] - b[i].p[k]; r2 += d[k]*d[k]; }
      double inv = mass[j] / (r2 * sqrt(r2));
      for (int k = 0; k < 3; k++) a[i][k] += d[k] * inv;
    }
    for (int i = 0; i < nb; i++) for (int k = 0; k < 3; k++) { b[i].v[k] += 0.05 * a[i][k]; b[i].p[k] += 0.05 * b[i].v[k]; }
  }
  double ke = 0;
  for (int i = 0; i < nb; i++) for (int k = 0; k < 3; k++) ke += 0.5 * mass[i] * b[i].v[k] * b[i].v[k];
  double xp[24]; for (int i = 0; i < nb; i++) for (int k = 0; k < 3; k++) xp[3*i+k] = b[i].p[k];
  return ke + energy(xp, n);
}
/* SPH cubic spline kernel (piecewise), density, pressure energy */
static double W(double r, double h) {
  double q = r / h, s = 1.0 / (M_PI * h * h * h);
  if (q < 1) return s * (1 - 1.5 * q * q + 0.75 * q * q * q);
  if (q < 2) { double t = 2 - q; return s * 0.25 * t * t * t; }
  return 0;
}
double sph(const double *x, int n) { /* x: positions 3*np then h */
  int np = (n - 1) / 3; double h = x[n - 1], E = 0;
  for (int i = 0; i < np; i++) {
    double rho = 0;
    for (int j = 0; j < np; j++) {
      double dx = x[3*i] - x[3*j], dy = x[3*i+1] - x[3*j+1], dz = x[3*i+2] - x[3*j+2];
      rho += W(sqrt(dx*dx + dy*dy + dz*dz + 1e-12), h);
    }
    E += pow(rho, 1.4) / 0.4;
  }
  return E;
}
int main(void) {
  double x[15]; fz_seed(3); fz_fill(x, 15, -1, 1);
  FZ_CHECK_GRAD("nbody energy", energy, x, 15, 1e-6);
  FZ_CHECK_GRAD("leapfrog", step_energy, x, 15, 1e-5);
  {
  double x[19]; fz_seed(7); fz_fill(x, 18, 0, 1.5); x[18] = 0.9;
  FZ_CHECK_GRAD("sph", sph, x, 19, 1e-5);
  }
  return fz_finish();
}
