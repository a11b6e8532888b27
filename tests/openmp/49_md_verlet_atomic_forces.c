// OMP_THREADS: 1 2 3
// OPT: O0 O2
// A small molecular-dynamics code as it is usually parallelized: a velocity-Verlet time
// loop calling `forces`, whose `parallel for schedule(dynamic, 2)` over the pairs i < j
// adds each pair's force to both atoms with `omp atomic` (Newton's third law) and sums
// the potential energy with `reduction(+:)`; the position and velocity updates are
// `parallel for` loops in their own functions, and the kinetic energy is another
// reduction. The loss is the total energy after the steps plus a position-weighted
// term. Reverse mode (with respect to the initial positions and velocities) against
// central differences, forward mode against reverse (the dot-product identity).
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NA 6
#define D 2
#define STEPS 4
#define DT 0.01

static double forces(const double *x, double *f) {
  double epot = 0;
  for (int k = 0; k < NA * D; k++) f[k] = 0;
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : epot)
  for (int i = 0; i < NA; i++)
    for (int j = i + 1; j < NA; j++) {
      double dx = x[i * D] - x[j * D], dy = x[i * D + 1] - x[j * D + 1];
      double r2 = dx * dx + dy * dy;
      double inv = 1 / (r2 + 0.5);
      epot += inv + 0.1 * r2;
      double s = 2 * inv * inv - 0.2; /* -dE/d(r2) * 2 */
#pragma omp atomic
      f[i * D] += s * dx;
#pragma omp atomic
      f[i * D + 1] += s * dy;
#pragma omp atomic
      f[j * D] -= s * dx;
#pragma omp atomic
      f[j * D + 1] -= s * dy;
    }
  return epot;
}

static void kick(double *v, const double *f) {
#pragma omp parallel for
  for (int k = 0; k < NA * D; k++) v[k] += 0.5 * DT * f[k];
}

static void drift(double *x, const double *v) {
#pragma omp parallel for
  for (int k = 0; k < NA * D; k++) x[k] += DT * v[k];
}

double md_loss(double *x, double *v, double *f) {
  double epot = forces(x, f);
  for (int t = 0; t < STEPS; t++) {
    kick(v, f);
    drift(x, v);
    epot = forces(x, f);
    kick(v, f);
  }
  double ekin = 0, wx = 0;
#pragma omp parallel for reduction(+ : ekin, wx)
  for (int k = 0; k < NA * D; k++) {
    ekin += 0.5 * v[k] * v[k];
    wx += 0.1 * (k + 1) * x[k];
  }
  return epot + ekin + wx;
}

static double x0[NA * D], v0[NA * D];
static double eval(void *ctx) {
  (void)ctx;
  double x[NA * D], v[NA * D], f[NA * D];
  for (int k = 0; k < NA * D; k++) x[k] = x0[k], v[k] = v0[k];
  return md_loss(x, v, f);
}

int main(void) {
  fz_seed(49);
  for (int i = 0; i < NA; i++) {
    x0[i * D] = i % 3 + 0.2 * fz_uniform(-1, 1);
    x0[i * D + 1] = i / 3 + 0.2 * fz_uniform(-1, 1);
  }
  fz_fill(v0, NA * D, -0.5, 0.5);
  double x[NA * D], v[NA * D], f[NA * D], dx[NA * D], dv[NA * D], df[NA * D];
  for (int k = 0; k < NA * D; k++) x[k] = x0[k], v[k] = v0[k], dx[k] = dv[k] = df[k] = 0;
  __enzyme_autodiff((void *)md_loss, enzyme_dup, x, dx, enzyme_dup, v, dv, enzyme_dup, f, df);
  for (int k = 0; k < NA * D; k++) {
    char name[32];
    snprintf(name, sizeof name, "d/dx0[%d]", k);
    fz_check(name, dx[k], fz_fd_ptr(eval, 0, &x0[k]), 1e-6);
    snprintf(name, sizeof name, "d/dv0[%d]", k);
    fz_check(name, dv[k], fz_fd_ptr(eval, 0, &v0[k]), 1e-6);
  }
  double tx[NA * D], tv[NA * D], tf[NA * D], want = 0;
  for (int k = 0; k < NA * D; k++) {
    x[k] = x0[k], v[k] = v0[k], tf[k] = 0;
    tx[k] = 0.1 * (k % 3) - 0.1;
    tv[k] = 0.05 * (k % 4) - 0.05;
    want += tx[k] * dx[k] + tv[k] * dv[k];
  }
  double tl = __enzyme_fwddiff((void *)md_loss, enzyme_dup, x, tx, enzyme_dup, v, tv, enzyme_dup,
                               f, tf);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_finish();
}
