// MPI: 2 3 4
// OPT: O0 O2
// The nonblocking irregular collectives as codes overlap them with local work: rank 0
// scatters irregular blocks (2 to 5 elements per rank) with MPI_Iscatterv while every
// rank computes a local norm of its parameters, completed by MPI_Wait; each rank
// transforms its block, sums a local energy reduced with MPI_Allreduce(MPI_IN_PLACE),
// and sends its block back with MPI_Igatherv (root 1 when there are more than two
// ranks) completed with MPI_Waitall together with an MPI_Ireduce of the energy. These
// two collectives were missing-derivative errors; runtime/mpi_composed.c now runs each
// as its blocking composed collective with a request that completes at once. The input
// lives on rank 0 and the loss on the gathering root: the gradient is compared with the
// serial program's (itself checked against central finite differences), the other ranks'
// must be zero, and forward mode is checked against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define MAXP 4
#define MAXN (5 * MAXP)

static int counts[MAXP], displs[MAXP], NG, ROOT;

/* x: NG values then a parameter, read on rank 0 only; *out: the loss on ROOT. */
void loss(const double *x, double *out) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int n = counts[me];
  double loc[MAXN], y[MAXN], yall[MAXN], th = 0;
  MPI_Request rq[2];
  MPI_Iscatterv(x, counts, displs, MPI_DOUBLE, loc, n, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq[0]);
  if (me == 0) th = x[NG];
  double wnorm = 1.0 + 0.1 * me * me;
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Bcast(&th, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double e = 0;
  for (int i = 0; i < n; i++) {
    y[i] = th * sin(loc[i]) + loc[i] * loc[(i + 1) % n] * wnorm;
    e += y[i] * y[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < n; i++) y[i] /= sqrt(e);
  double cube = 0, C = 0;
  for (int i = 0; i < n; i++) cube += y[i] * y[i] * y[i];
  MPI_Igatherv(y, n, MPI_DOUBLE, yall, counts, displs, MPI_DOUBLE, ROOT, MPI_COMM_WORLD,
               &rq[0]);
  MPI_Ireduce(&cube, &C, 1, MPI_DOUBLE, MPI_SUM, ROOT, MPI_COMM_WORLD, &rq[1]);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  if (me == ROOT) {
    double l = C;
    for (int i = 0; i < NG; i++) l += (0.3 + 0.1 * (i % 3)) * yall[i];
    *out = l;
  }
}

/* The same on the whole vector, block by block. */
double serial_loss(const double *x, int p) {
  double y[MAXN], e = 0, l = 0;
  for (int r = 0; r < p; r++) {
    int n = counts[r], d = displs[r];
    for (int i = 0; i < n; i++) {
      y[d + i] = x[NG] * sin(x[d + i]) + x[d + i] * x[d + (i + 1) % n] * (1.0 + 0.1 * r * r);
      e += y[d + i] * y[d + i];
    }
  }
  for (int i = 0; i < NG; i++) {
    double z = y[i] / sqrt(e);
    l += z * z * z + (0.3 + 0.1 * (i % 3)) * z;
  }
  return l;
}

static double xall[MAXN + 1];
static double eval(void *ctx) { return serial_loss(xall, *(const int *)ctx); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  const int P = fz_size;
  ROOT = P > 2 ? 1 : 0;
  NG = 0;
  for (int r = 0; r < P; r++) {
    counts[r] = 2 + (r * 3) % 4;
    displs[r] = NG;
    NG += counts[r];
  }
  fz_seed(65);
  fz_fill(xall, NG, -1, 1);
  xall[NG] = 0.6;
  double x[MAXN + 1], dx[MAXN + 1], out = 0, dout = fz_rank == ROOT ? 1 : 0;
  for (int i = 0; i < NG + 1; i++) x[i] = fz_rank == 0 ? xall[i] : 0;
  double value = 0;
  loss(x, &value);
  fz_zero(dx, NG + 1);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  /* rank 0 owns the input: its gradient goes to ROOT for the comparison */
  double g[MAXN + 1];
  if (ROOT != 0) {
    if (fz_rank == 0) MPI_Send(dx, NG + 1, MPI_DOUBLE, ROOT, 7, MPI_COMM_WORLD);
    if (fz_rank == ROOT) MPI_Recv(g, NG + 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    for (int i = 0; i < NG + 1; i++) g[i] = dx[i];
  }
  if (fz_rank == ROOT) {
    fz_check("distributed value vs serial", value, serial_loss(xall, P), 1e-12);
    double ds[MAXN + 1];
    fz_zero(ds, NG + 1);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_vs_serial("rank 0 gradient vs serial", g, ds, NG + 1, eval, (void *)&P, xall, 2);
  }
  if (fz_rank != 0) {
    double zero[MAXN + 1];
    fz_zero(zero, NG + 1);
    fz_check_arr("other ranks' gradient is zero", dx, zero, NG + 1, 0);
  }
  /* forward mode: a direction on rank 0's input, the tangent of the loss on ROOT */
  double v[MAXN + 1], tout = 0, o2 = 0;
  fz_fill(v, NG + 1, -1, 1);
  if (fz_rank != 0) fz_zero(v, NG + 1);
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, &o2, &tout);
  double vd = 0, both[2];
  for (int i = 0; i < NG + 1; i++) vd += dx[i] * v[i];
  both[0] = fz_rank == 0 ? vd : 0;
  both[1] = fz_rank == ROOT ? tout : 0;
  MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (fz_rank == 0) fz_check("forward <J v> = <grad, v>", both[1], both[0], 1e-10);
  return fz_mpi_finish();
}
