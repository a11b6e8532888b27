// MPI: 2 4
// OPT: O0 O2
// A 1-D nonlinear diffusion time loop with the energy fed back into the state, as a
// normalized (power-method-like) iteration is written: each step exchanges one ghost
// cell with each neighbour by MPI_Sendrecv (MPI_PROC_NULL at the two ends: fixed zero
// boundaries), updates the interior, computes the global energy sum(u^2) with
// MPI_Allreduce and divides the state by its square root, so every cell's derivative
// depends on every rank's cells. The loss is an MPI_Allreduce of sum(w u) written on
// every rank (only rank 0 seeds it). The gathered gradient (state and weights) is
// compared with the serial program's, forward mode with the dot product.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 6
#define STEPS 5
#define MAXP 4

void normalized_steps(double *u, const double *w, double *loss) {
  double g[NLOC + 2], e, local;
  int left = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int right = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  for (int t = 0; t < STEPS; t++) {
    g[0] = 0, g[NLOC + 1] = 0;
    for (int i = 0; i < NLOC; i++) g[i + 1] = u[i];
    MPI_Sendrecv(&g[1], 1, MPI_DOUBLE, left, 0, &g[NLOC + 1], 1, MPI_DOUBLE, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&g[NLOC], 1, MPI_DOUBLE, right, 1, &g[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    local = 0;
    for (int i = 0; i < NLOC; i++) {
      double c = g[i + 1];
      u[i] = c + 0.2 * (1 + 0.5 * c * c) * (g[i] - 2 * c + g[i + 2]) + 0.05 * sin(c);
      local += u[i] * u[i];
    }
    MPI_Allreduce(&local, &e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double s = 1 / sqrt(e);
    for (int i = 0; i < NLOC; i++) u[i] *= s;
  }
  local = 0;
  for (int i = 0; i < NLOC; i++) local += w[i] * u[i];
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial_steps(double *u, const double *w, int n) {
  double g[MAXP * NLOC + 2];
  for (int t = 0; t < STEPS; t++) {
    g[0] = 0, g[n + 1] = 0;
    for (int i = 0; i < n; i++) g[i + 1] = u[i];
    double e = 0;
    for (int i = 0; i < n; i++) {
      double c = g[i + 1];
      u[i] = c + 0.2 * (1 + 0.5 * c * c) * (g[i] - 2 * c + g[i + 2]) + 0.05 * sin(c);
    }
    /* the parallel program sums per rank, then over ranks */
    for (int r = 0; r < n / NLOC; r++) {
      double part = 0;
      for (int i = 0; i < NLOC; i++) part += u[r * NLOC + i] * u[r * NLOC + i];
      e += part;
    }
    double s = 1 / sqrt(e);
    for (int i = 0; i < n; i++) u[i] *= s;
  }
  double l = 0;
  for (int r = 0; r < n / NLOC; r++) {
    double part = 0;
    for (int i = 0; i < NLOC; i++) part += w[r * NLOC + i] * u[r * NLOC + i];
    l += part;
  }
  return l;
}

static double u0[MAXP * NLOC], wall[MAXP * NLOC];
static int N;
static double eval(void *ctx) {
  (void)ctx;
  double u[MAXP * NLOC];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  return serial_steps(u, wall, N);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  N = fz_size * NLOC;
  fz_seed(54);
  fz_fill(u0, N, 0.1, 1);
  fz_fill(wall, N, -1, 1);
  double u[NLOC], du[NLOC], w[NLOC], dw[NLOC], loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) u[i] = u0[fz_rank * NLOC + i], w[i] = wall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  fz_zero(dw, NLOC);
  __enzyme_autodiff((void *)normalized_steps, enzyme_dup, u, du, enzyme_dup, w, dw,
                    enzyme_dup, &loss, &dloss);
  double gu[MAXP * NLOC], gw[MAXP * NLOC];
  fz_gather(du, NLOC, gu);
  fz_gather(dw, NLOC, gw);
  if (fz_rank == 0) {
    double us[MAXP * NLOC], su[MAXP * NLOC], sw[MAXP * NLOC];
    for (int i = 0; i < N; i++) us[i] = u0[i];
    fz_zero(su, N);
    fz_zero(sw, N);
    fz_check("loss vs serial", loss, eval(0), 1e-12);
    __enzyme_autodiff((void *)serial_steps, enzyme_dup, us, su, enzyme_dup, wall, sw,
                      enzyme_const, N);
    fz_check_vs_serial("d/du0 vs serial", gu, su, N, eval, 0, u0, 1);
    fz_check_vs_serial("d/dw vs serial", gw, sw, N, eval, 0, wall, 3);
  }
  double tu[NLOC], tw[NLOC], tl = 0, mine = 0, want;
  for (int i = 0; i < NLOC; i++) {
    u[i] = u0[fz_rank * NLOC + i];
    tu[i] = 0.1 * ((fz_rank + i) % 3) - 0.1;
    tw[i] = 0.05 * i - 0.1;
    mine += tu[i] * du[i] + tw[i] * dw[i];
  }
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)normalized_steps, enzyme_dup, u, tu, enzyme_dup, w, tw, enzyme_dup,
                   &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
