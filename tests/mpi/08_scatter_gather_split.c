// MPI: 2 4
// OPT: O0 O2
// A least-squares fit the way it is often written: rank 0 holds the data and the
// parameters, MPI_Scatter hands out the data blocks, MPI_Bcast the parameters, every
// rank computes its residuals, MPI_Gather brings them back to rank 0 which sums the
// squares. A second loss uses MPI_Allgather of every rank's block and a communicator
// split into even and odd ranks (MPI_Comm_split) for a partial MPI_Allreduce. Checked
// against the serial program's gradient (and finite differences), forward mode against
// reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define M 4 /* data points per rank */
#define NP 3

/* On rank 0: data[P*M] and theta[NP]; the loss lands in *out on rank 0. */
void fit(const double *data, const double *theta, double *out) {
  double mine[M], th[NP], res[M], all[4 * M];
  MPI_Scatter(data, M, MPI_DOUBLE, mine, M, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (fz_rank == 0)
    for (int k = 0; k < NP; k++) th[k] = theta[k];
  MPI_Bcast(th, NP, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < M; i++) {
    double t = 0.1 * (fz_rank * M + i);
    res[i] = th[0] + th[1] * t + th[2] * t * t - mine[i] * exp(-0.1 * mine[i]);
  }
  MPI_Gather(res, M, MPI_DOUBLE, all, M, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) {
    double l = 0;
    for (int i = 0; i < fz_size * M; i++) l += all[i] * all[i];
    *out = l;
  }
}

double fit_serial(const double *data, const double *theta, int p) {
  double l = 0;
  for (int i = 0; i < p * M; i++) {
    double t = 0.1 * i;
    double r = theta[0] + theta[1] * t + theta[2] * t * t - data[i] * exp(-0.1 * data[i]);
    l += r * r;
  }
  return l;
}

/* Every rank: all blocks through MPI_Allgather, then a sum within its parity group. */
void mixed(const double *x, double *out) {
  double all[4 * M], mine[M];
  for (int i = 0; i < M; i++) mine[i] = x[i] * x[i];
  MPI_Allgather(mine, M, MPI_DOUBLE, all, M, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, fz_rank % 2, fz_rank, &half);
  double l = 0;
  for (int i = 0; i < fz_size * M; i++) l += sin(all[i]) * (1 + fz_rank) * x[i % M];
  MPI_Allreduce(&l, out, 1, MPI_DOUBLE, MPI_SUM, half);
}

/* The serial program of `mixed`, with the loss of rank 0's group seeded: the sum over
 * even ranks r of sum_i sin(x_{i/M}[i%M]^2) (1+r) x_r[i%M]. */
double mixed_serial(const double *x, int p) {
  double l = 0;
  for (int r = 0; r < p; r += 2)
    for (int i = 0; i < p * M; i++) {
      double a = x[i] * x[i];
      l += sin(a) * (1 + r) * x[r * M + i % M];
    }
  return l;
}

static double dall_[4 * M], theta_[NP], xall[4 * M];
static int P;
static double eval_fit(void *ctx) {
  (void)ctx;
  return fit_serial(dall_, theta_, P);
}
static double eval_mixed(void *ctx) {
  (void)ctx;
  return mixed_serial(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(808);
  fz_fill(dall_, P * M, -1, 1);
  fz_fill(theta_, NP, -1, 1);
  fz_fill(xall, P * M, -1, 1);
  /* Only rank 0's data and parameters exist; the others pass zeros. */
  double data[4 * M], ddata[4 * M], th[NP], dth[NP], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < P * M; i++) data[i] = fz_rank == 0 ? dall_[i] : 0;
  for (int k = 0; k < NP; k++) th[k] = fz_rank == 0 ? theta_[k] : 0;
  fz_zero(ddata, P * M);
  fz_zero(dth, NP);
  __enzyme_autodiff((void *)fit, enzyme_dup, data, ddata, enzyme_dup, th, dth, enzyme_dup, &out,
                    &dout);
  if (fz_rank == 0) {
    double sd[4 * M], st[NP];
    fz_zero(sd, P * M);
    fz_zero(st, NP);
    __enzyme_autodiff((void *)fit_serial, enzyme_dup, dall_, sd, enzyme_dup, theta_, st,
                      enzyme_const, P);
    fz_check("fit loss", out, fit_serial(dall_, theta_, P), 1e-12);
    fz_check_arr("d data vs serial", ddata, sd, P * M, 1e-12);
    fz_check_arr("d theta vs serial", dth, st, NP, 1e-12);
    for (int k = 0; k < NP; k++) {
      char name[32];
      snprintf(name, sizeof name, "theta fd [%d]", k);
      fz_check(name, st[k], fz_fd_ptr(eval_fit, 0, &theta_[k]), 1e-6);
    }
    for (int k = 0; k < P * M; k += 3) {
      char name[32];
      snprintf(name, sizeof name, "data fd [%d]", k);
      fz_check(name, sd[k], fz_fd_ptr(eval_fit, 0, &dall_[k]), 1e-6);
    }
  } else {
    double zero[4 * M];
    fz_zero(zero, P * M);
    fz_check_arr("non-root d data", ddata, zero, P * M, 0);
  }
  /* Forward mode of fit: tangent of the loss on rank 0 vs <grad, v>. */
  double vd[4 * M], vt[NP], tout = 0;
  for (int i = 0; i < P * M; i++) vd[i] = fz_rank == 0 ? 0.2 + 0.05 * i : 0;
  for (int k = 0; k < NP; k++) vt[k] = fz_rank == 0 ? 0.5 - 0.3 * k : 0;
  __enzyme_fwddiff((void *)fit, enzyme_dup, data, vd, enzyme_dup, th, vt, enzyme_dup, &out,
                   &tout);
  if (fz_rank == 0) {
    double dot = 0;
    for (int i = 0; i < P * M; i++) dot += ddata[i] * vd[i];
    for (int k = 0; k < NP; k++) dot += dth[k] * vt[k];
    fz_check("fit forward vs reverse", tout, dot, 1e-12);
  }

  /* mixed: seed rank 0's output (the even group's sum). */
  double x[M], dx[M], o = 0, dov = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < M; i++) x[i] = xall[fz_rank * M + i];
  fz_zero(dx, M);
  __enzyme_autodiff((void *)mixed, enzyme_dup, x, dx, enzyme_dup, &o, &dov);
  double dg[4 * M];
  fz_gather(dx, M, dg);
  if (fz_rank == 0) {
    double sx[4 * M];
    fz_zero(sx, P * M);
    __enzyme_autodiff((void *)mixed_serial, enzyme_dup, xall, sx, enzyme_const, P);
    fz_check("mixed loss", o, mixed_serial(xall, P), 1e-12);
    fz_check_arr("mixed gathered vs serial", dg, sx, P * M, 1e-12);
    for (int k = 0; k < P * M; k += 3) {
      char name[32];
      snprintf(name, sizeof name, "mixed fd [%d]", k);
      fz_check(name, sx[k], fz_fd_ptr(eval_mixed, 0, &xall[k]), 1e-6);
    }
  }
  /* Forward mode of mixed: the tangent of rank 0's output vs <grad, v> over all ranks. */
  double v[M], to = 0;
  for (int i = 0; i < M; i++) v[i] = 0.4 - 0.1 * i + 0.2 * fz_rank;
  __enzyme_fwddiff((void *)mixed, enzyme_dup, x, v, enzyme_dup, &o, &to);
  double dot = 0, total;
  for (int i = 0; i < M; i++) dot += dx[i] * v[i];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (fz_rank == 0) fz_check("mixed forward vs reverse", to, total, 1e-12);
  return fz_mpi_finish();
}
