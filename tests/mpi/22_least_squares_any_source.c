// MPI: 2 3 4
// OPT: O0 O2
// A distributed least-squares fit as data-parallel codes write it: rank 0 broadcasts
// the model parameters, every rank computes the residuals of its rows, the partial
// gradients of the data term are summed with MPI_Allreduce on MPI_IN_PLACE, each rank's
// sum of squared residuals comes back to rank 0 by MPI_Recv from MPI_ANY_SOURCE with the
// sender read from the status (arrival order varies), the largest residual by
// MPI_Allreduce(MPI_MAX), and a communicator made by MPI_Comm_dup before the call
// carries a regularisation term's MPI_Reduce. The loss (rank 0) is differentiated with
// respect to the parameters (on rank 0) and every rank's data; the gathered gradient is
// compared with the serial program's (itself checked against finite differences), and
// forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define ROWS 5 /* rows per rank */
#define K 3    /* parameters */

static MPI_Comm dup_comm;

/* a: this rank's ROWS x K design rows, y: its targets; p: the parameters (rank 0). */
void loss(const double *a, const double *y, const double *p0, double *out) {
  double p[K], r[ROWS], g[K] = {0, 0, 0};
  if (fz_rank == 0)
    for (int k = 0; k < K; k++) p[k] = p0[k];
  MPI_Bcast(p, K, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double ss = 0, big = 0;
  for (int i = 0; i < ROWS; i++) {
    double f = 0;
    for (int k = 0; k < K; k++) f += a[i * K + k] * p[k];
    r[i] = tanh(f) - y[i];
    ss += r[i] * r[i];
    if (fabs(r[i]) > big) big = fabs(r[i]);
    for (int k = 0; k < K; k++) g[k] += r[i] * a[i * K + k];
  }
  MPI_Allreduce(MPI_IN_PLACE, g, K, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double gmax;
  MPI_Allreduce(&big, &gmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double reg = 0, regsum = 0;
  for (int k = 0; k < K; k++) reg += p[k] * p[k] * (fz_rank + 1);
  MPI_Reduce(&reg, &regsum, 1, MPI_DOUBLE, MPI_SUM, 0, dup_comm);
  double total = 0;
  if (fz_rank == 0) {
    double per[8];
    per[0] = ss;
    for (int q = 1; q < fz_size; q++) {
      double v;
      MPI_Status st;
      MPI_Recv(&v, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
      per[st.MPI_SOURCE] = v;
    }
    /* weighted by rank: the placement by the status matters */
    for (int q = 0; q < fz_size; q++) total += per[q] * (1 + 0.25 * q);
  } else {
    MPI_Send(&ss, 1, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD);
  }
  double gn = 0;
  for (int k = 0; k < K; k++) gn += g[k] * g[k];
  *out = fz_rank == 0 ? total + 0.1 * gn + 0.5 * gmax + 0.01 * regsum : 0;
}

double serial(const double *a, const double *y, const double *p, int P) {
  double g[K] = {0, 0, 0}, total = 0, gmax = 0, regsum = 0;
  for (int q = 0; q < P; q++) {
    double ss = 0;
    for (int i = q * ROWS; i < (q + 1) * ROWS; i++) {
      double f = 0;
      for (int k = 0; k < K; k++) f += a[i * K + k] * p[k];
      double r = tanh(f) - y[i];
      ss += r * r;
      if (fabs(r) > gmax) gmax = fabs(r);
      for (int k = 0; k < K; k++) g[k] += r * a[i * K + k];
    }
    total += ss * (1 + 0.25 * q);
    for (int k = 0; k < K; k++) regsum += p[k] * p[k] * (q + 1);
  }
  double gn = 0;
  for (int k = 0; k < K; k++) gn += g[k] * g[k];
  return total + 0.1 * gn + 0.5 * gmax + 0.01 * regsum;
}

static double A[4 * ROWS * K], Y[4 * ROWS], Pm[K] = {0.4, -0.7, 0.2};
static int NP;
static double eval(void *ctx) {
  (void)ctx;
  return serial(A, Y, Pm, NP);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);
  NP = fz_size;
  fz_seed(2222);
  fz_fill(A, NP * ROWS * K, -1, 1);
  fz_fill(Y, NP * ROWS, -0.5, 0.5);
  int na = ROWS * K;
  double a[ROWS * K], y[ROWS], da[ROWS * K], dy[ROWS], dp[K] = {0, 0, 0};
  for (int i = 0; i < na; i++) a[i] = A[fz_rank * na + i];
  for (int i = 0; i < ROWS; i++) y[i] = Y[fz_rank * ROWS + i];
  fz_zero(da, na);
  fz_zero(dy, ROWS);
  double out = 0, dout = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, a, da, enzyme_dup, y, dy, enzyme_dup, Pm, dp,
                    enzyme_dup, &out, &dout);
  double daall[4 * ROWS * K], dyall[4 * ROWS];
  fz_gather(da, na, daall);
  fz_gather(dy, ROWS, dyall);
  if (fz_rank == 0) {
    double sa[4 * ROWS * K], sy[4 * ROWS], sp[K] = {0, 0, 0};
    fz_zero(sa, NP * na);
    fz_zero(sy, NP * ROWS);
    __enzyme_autodiff((void *)serial, enzyme_dup, A, sa, enzyme_dup, Y, sy, enzyme_dup, Pm, sp,
                      enzyme_const, NP);
    fz_check("loss", out, serial(A, Y, Pm, NP), 1e-12);
    fz_check_arr("d a gathered vs serial", daall, sa, NP * na, 1e-12);
    fz_check_arr("d y gathered vs serial", dyall, sy, NP * ROWS, 1e-12);
    fz_check_arr("d p vs serial", dp, sp, K, 1e-12);
    for (int k = 0; k < K; k++) fz_check("serial d p vs fd", sp[k], fz_fd_ptr(eval, 0, &Pm[k]), 1e-6);
    for (int i = 0; i < NP * na; i += 4)
      fz_check("serial d a vs fd", sa[i], fz_fd_ptr(eval, 0, &A[i]), 1e-6);
    for (int i = 0; i < NP * ROWS; i += 3)
      fz_check("serial d y vs fd", sy[i], fz_fd_ptr(eval, 0, &Y[i]), 1e-6);
  } else {
    fz_check("d p stays on rank 0", dp[0] + dp[1] + dp[2], 0, 0);
  }
  /* Forward mode: tangents of every rank's data and rank 0's parameters. */
  double va[ROWS * K], vy[ROWS], vp[K] = {0.3, -0.2, 0.5}, tout = 0;
  for (int i = 0; i < na; i++) va[i] = 0.1 * (i % 5) - 0.2 + 0.05 * fz_rank;
  for (int i = 0; i < ROWS; i++) vy[i] = 0.2 - 0.1 * i;
  __enzyme_fwddiff((void *)loss, enzyme_dup, a, va, enzyme_dup, y, vy, enzyme_dup, Pm, vp,
                   enzyme_dup, &out, &tout);
  double dot = 0, total;
  for (int i = 0; i < na; i++) dot += da[i] * va[i];
  for (int i = 0; i < ROWS; i++) dot += dy[i] * vy[i];
  if (fz_rank == 0)
    for (int k = 0; k < K; k++) dot += dp[k] * vp[k];
  MPI_Allreduce(&dot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t0 = tout;
  MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  fz_check("forward vs reverse", t0, total, 1e-12);
  MPI_Comm_free(&dup_comm);
  return fz_mpi_finish();
}
