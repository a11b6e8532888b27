// MPI: 2 3 4
// OPT: O0 O2
// A distributed fitting loop as data-parallel codes write it: rank 0 holds the
// parameters and the data; MPI_Scatter hands each rank its block once, then every
// iteration MPI_Bcast's the parameters from the root, each rank computes its part of
// the gradient of a least-squares misfit, MPI_Reduce sums the parts at the root, and
// the root takes a descent step (the other ranks' copies are overwritten by the next
// broadcast). After the loop the residuals come back with MPI_Gather and the root
// computes the loss. The derivatives of the loss with respect to the initial parameters
// and the data (both on rank 0) are compared with the serial program's (differentiated
// too, against central differences) to 1e-12; forward mode against reverse.
#include <mpi.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 5
#define NP 3
#define STEPS 6
#define ETA 0.05
#define MAXP 4

static double model(const double *q, double xi) { return q[0] * sin(q[1] * xi) + q[2]; }

static void misfit_grad(const double *q, double xi, double *g) {
  double r = model(q, xi) - xi * xi;
  g[0] += r * sin(q[1] * xi);
  g[1] += r * q[0] * xi * cos(q[1] * xi);
  g[2] += r;
}

/* p: the root's initial parameters; x: the root's data (nproc * NLOC). */
void fit(const double *p, const double *x, double *loss) {
  double q[NP], mine[NLOC], g[NP], gsum[NP], r[NLOC], all[MAXP * NLOC];
  memcpy(q, p, sizeof q);
  MPI_Scatter(x, NLOC, MPI_DOUBLE, mine, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int t = 0; t < STEPS; t++) {
    MPI_Bcast(q, NP, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int k = 0; k < NP; k++) g[k] = 0;
    for (int i = 0; i < NLOC; i++) misfit_grad(q, mine[i], g);
    MPI_Reduce(g, gsum, NP, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (fz_rank == 0)
      for (int k = 0; k < NP; k++) q[k] -= ETA * gsum[k];
  }
  MPI_Bcast(q, NP, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < NLOC; i++) r[i] = model(q, mine[i]) - mine[i] * mine[i];
  MPI_Gather(r, NLOC, MPI_DOUBLE, all, NLOC, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) {
    double l = 0;
    for (int i = 0; i < fz_size * NLOC; i++) l += all[i] * all[i] * (1 + 0.1 * i);
    *loss = l + 0.01 * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  }
}

/* The same on one process; the rank blocks' gradient parts are summed in rank order. */
double serial_fit(const double *p, const double *x, int nproc) {
  double q[NP];
  memcpy(q, p, sizeof q);
  for (int t = 0; t < STEPS; t++) {
    double gsum[NP] = {0};
    for (int rk = 0; rk < nproc; rk++) {
      double g[NP] = {0};
      for (int i = 0; i < NLOC; i++) misfit_grad(q, x[rk * NLOC + i], g);
      for (int k = 0; k < NP; k++) gsum[k] += g[k];
    }
    for (int k = 0; k < NP; k++) q[k] -= ETA * gsum[k];
  }
  double l = 0;
  for (int i = 0; i < nproc * NLOC; i++) {
    double r = model(q, x[i]) - x[i] * x[i];
    l += r * r * (1 + 0.1 * i);
  }
  return l + 0.01 * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

static double p0[NP], xall[MAXP * NLOC];
static double eval(void *ctx) {
  (void)ctx;
  return serial_fit(p0, xall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(53);
  fz_fill(xall, n, -1, 1);
  p0[0] = 0.8, p0[1] = 1.3, p0[2] = 0.2;
  double p[NP], dp[NP] = {0}, dx[MAXP * NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  memcpy(p, p0, sizeof p);
  __enzyme_autodiff((void *)fit, enzyme_dup, p, dp, enzyme_dup, xall, dx, enzyme_dup, &loss,
                    &dloss);
  if (fz_rank == 0) {
    double sp[NP] = {0}, sx[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial_fit(p0, xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial_fit, enzyme_dup, p0, sp, enzyme_dup, xall, sx,
                      enzyme_const, fz_size);
    fz_check_vs_serial("d/dp vs serial", dp, sp, NP, eval, 0, p0, 1);
    fz_check_vs_serial("d/dx vs serial", dx, sx, n, eval, 0, xall, 2);
  }
  /* forward: tangents on the root's inputs; the root's loss tangent vs the gradient */
  double tp[NP] = {0.3, -0.2, 0.1}, tx[MAXP * NLOC], tl = 0, want = 0;
  for (int i = 0; i < n; i++) tx[i] = 0.05 * (i % 4) - 0.07;
  for (int k = 0; k < NP; k++) want += tp[k] * dp[k];
  for (int i = 0; i < n; i++) want += tx[i] * dx[i];
  memcpy(p, p0, sizeof p);
  loss = 0;
  __enzyme_fwddiff((void *)fit, enzyme_dup, p, tp, enzyme_dup, xall, tx, enzyme_dup, &loss, &tl);
  if (fz_rank == 0) fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
