// OMP_THREADS: 1 2
// A 2-D heat equation: each time step is a parallel region over the rows, reading the
// neighbours of every cell (threads share the rows at their chunk borders, so the
// adjoints of those reads are accumulated atomically) and writing its own rows. The
// gradient of the final energy with respect to the initial field and the diffusion
// coefficient is checked against central finite differences.
#include "fz_test.h"

#define NX 24
#define NY 20
#define STEPS 12

void heat_step(const double *u, double *v, double kappa) {
#pragma omp parallel for
  for (int i = 1; i < NX - 1; i++)
    for (int j = 1; j < NY - 1; j++) {
      int c = i * NY + j;
      v[c] = u[c] + kappa * (u[c - NY] + u[c + NY] + u[c - 1] + u[c + 1] - 4 * u[c]);
    }
}

double energy(const double *u0, double kappa) {
  double a[NX * NY], b[NX * NY];
  for (int c = 0; c < NX * NY; c++) a[c] = b[c] = u0[c];
  for (int t = 0; t < STEPS; t++) {
    heat_step(a, b, kappa);
    heat_step(b, a, kappa);
  }
  double e = 0;
  for (int c = 0; c < NX * NY; c++) e += a[c] * a[c] * (1.0 + 0.001 * c);
  return e;
}

static double u0[NX * NY], kappa = 0.11;

static double eval(void *ctx) {
  (void)ctx;
  return energy(u0, kappa);
}

int main(void) {
  fz_seed(13);
  fz_fill(u0, NX * NY, -1, 1);
  double du[NX * NY];
  fz_zero(du, NX * NY);
  double dkappa = __enzyme_autodiff((void *)energy, enzyme_dup, u0, du, enzyme_out, kappa);
  for (int c = 0; c < NX * NY; c += 7) {
    char name[32];
    snprintf(name, sizeof name, "du[%d]", c);
    fz_check(name, du[c], fz_fd_ptr(eval, 0, &u0[c]), 1e-6);
  }
  fz_check("dkappa", dkappa, fz_fd_ptr(eval, 0, &kappa), 1e-6);
  return fz_finish();
}
