// OPT: O0 O1 O2 O3
// Particle-in-cell charge deposition (cloud in cell) as plasma codes write it: each
// particle's cell index is `(int)floor(x / dx)` of its active position, its charge split
// linearly between that cell and the next with periodic wrap (`% n` on a possibly
// negative index fixed up), the grid zeroed by `memset` and then a field energy
// 0.5 sum rho_i^2 + a smooth external potential. Integer indices computed from active
// values carry no derivative; the weights do. Oracle: central finite differences
// (positions kept away from cell edges) and the analytic charge gradient.
#include "fz_test.h"

#define NPART 9
#define NG 8

double deposit_energy(const double *x, const double *q, int np, double *rho, int ng,
                      double len) {
  double dx = len / ng;
  memset(rho, 0, sizeof(double) * ng);
  for (int p = 0; p < np; p++) {
    double s = x[p] / dx;
    int i = (int)floor(s);
    double w = s - i;
    int i0 = i % ng, i1 = (i + 1) % ng;
    if (i0 < 0) i0 += ng;
    if (i1 < 0) i1 += ng;
    rho[i0] += q[p] * (1.0 - w);
    rho[i1] += q[p] * w;
  }
  double e = 0;
  for (int g = 0; g < ng; g++) e += 0.5 * rho[g] * rho[g] + cos(2.0 * M_PI * g / ng) * rho[g];
  return e;
}

static double X[NPART], Q[NPART], RHO[NG];
static double eval(void *ctx) { (void)ctx; return deposit_energy(X, Q, NPART, RHO, NG, 4.0); }

int main(void) {
  fz_seed(749);
  for (int p = 0; p < NPART; p++) {
    /* cell width 0.5; keep 0.05 away from cell edges; some negative (wrapped) */
    double cell = (double)(p % 11) - 3.0;
    X[p] = 0.5 * cell + fz_uniform(0.05, 0.45);
    Q[p] = fz_uniform(0.5, 1.5);
  }
  double dX[NPART] = {0}, dQ[NPART] = {0}, dRHO[NG] = {0};
  __enzyme_autodiff((void *)deposit_energy, enzyme_dup, X, dX, enzyme_dup, Q, dQ, enzyme_const,
                    NPART, enzyme_dup, RHO, dRHO, enzyme_const, NG, enzyme_const, 4.0);
  double fd[NPART];
  fz_fd_grad(eval, NULL, X, NPART, fd);
  fz_check_arr("dE/dx (fd)", dX, fd, NPART, 1e-6);
  fz_fd_grad(eval, NULL, Q, NPART, fd);
  fz_check_arr("dE/dq (fd)", dQ, fd, NPART, 1e-6);
  /* analytic dE/dq_p = sum over its two cells of w (rho_g + cos(2 pi g / ng)) */
  eval(NULL);
  double want[NPART];
  for (int p = 0; p < NPART; p++) {
    double s = X[p] / 0.5;
    int i = (int)floor(s);
    double w = s - i;
    int i0 = ((i % NG) + NG) % NG, i1 = (((i + 1) % NG) + NG) % NG;
    want[p] = (1 - w) * (RHO[i0] + cos(2 * M_PI * i0 / NG)) + w * (RHO[i1] + cos(2 * M_PI * i1 / NG));
  }
  fz_check_arr("dE/dq (analytic)", dQ, want, NPART, 1e-12);
  return fz_finish();
}
