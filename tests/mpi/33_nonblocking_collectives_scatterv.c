// MPI: 2 3 4
// OPT: O0 O2
// Nonblocking collectives as codes overlap them with local work: MPI_Ibcast of two
// parameters completed by MPI_Wait, MPI_Iallreduce of a local energy overlapped with a
// local sum and completed by MPI_Waitall together with an MPI_Isend/MPI_Irecv pair,
// MPI_Ireduce to rank 0 completed by MPI_Wait; around them irregular blocks
// (3 or 4 elements per rank) scattered from rank 0 by MPI_Scatterv, a periodic halo
// exchange by MPI_Sendrecv on a 1-D periodic MPI_Cart_create communicator kept in a
// global (MPI_Cart_shift inside), and the result gathered to rank 0 by MPI_Gatherv. The nonblocking
// collectives were missing-derivative errors; the derivative now runs each as its
// blocking collective with a request that completes at once (runtime/mpi_composed.c).
// The whole input and the loss live on rank 0: its gradient is compared with the
// serial program's (itself checked against central finite differences), the other
// ranks' must be zero, and forward mode is checked against reverse mode.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define MAXP 4
#define MAXN (4 * MAXP)

static int counts[MAXP], displs[MAXP], NG;
/* The periodic 1-D Cartesian communicator, made once in main (a communicator freed
 * inside the differentiated call is refused: its reverse still communicates on it). */
static MPI_Comm ring;

static double weight(int i) { return 0.4 + 0.15 * (i % 4); }

/* x: NG values then two parameters, read on rank 0 only; *out: the loss on rank 0. */
void loss(const double *x, double *out) {
  int me, left, right;
  MPI_Comm_rank(ring, &me);
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  double th[2] = {0, 0};
  if (me == 0) th[0] = x[NG], th[1] = x[NG + 1];
  MPI_Request rq[3];
  MPI_Ibcast(th, 2, MPI_DOUBLE, 0, ring, &rq[0]);
  int n = counts[me];
  double loc[MAXN + 2], y[MAXN], z[MAXN], zall[MAXN];
  MPI_Scatterv(x, counts, displs, MPI_DOUBLE, loc + 1, n, MPI_DOUBLE, 0, ring);
  MPI_Sendrecv(loc + 1, 1, MPI_DOUBLE, left, 1, loc + n + 1, 1, MPI_DOUBLE, right, 1, ring,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(loc + n, 1, MPI_DOUBLE, right, 2, loc, 1, MPI_DOUBLE, left, 2, ring,
               MPI_STATUS_IGNORE);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  double e = 0, E = 0, s = 0, far = 0;
  for (int i = 0; i < n; i++) {
    y[i] = th[0] * loc[i + 1] * loc[i + 1] + th[1] * (loc[i] + loc[i + 2]);
    e += y[i] * y[i];
  }
  MPI_Iallreduce(&e, &E, 1, MPI_DOUBLE, MPI_SUM, ring, &rq[0]);
  /* overlapped: each rank's first y travels to the right neighbour */
  MPI_Irecv(&far, 1, MPI_DOUBLE, left, 3, ring, &rq[1]);
  MPI_Isend(&y[0], 1, MPI_DOUBLE, right, 3, ring, &rq[2]);
  for (int i = 0; i < n; i++) s += sin(y[i]);
  MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
  double scale = 1.0 / sqrt(E);
  for (int i = 0; i < n; i++) z[i] = y[i] * scale + 0.1 * far;
  double cube = s, C = 0;
  for (int i = 0; i < n; i++) cube += z[i] * z[i] * z[i];
  MPI_Ireduce(&cube, &C, 1, MPI_DOUBLE, MPI_SUM, 0, ring, &rq[0]);
  MPI_Gatherv(z, n, MPI_DOUBLE, zall, counts, displs, MPI_DOUBLE, 0, ring);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  if (me == 0) {
    double l = C;
    for (int i = 0; i < NG; i++) l += weight(i) * zall[i];
    *out = l;
  }
}

/* The same on the whole vector, rank by rank where the blocks matter. */
double serial_loss(const double *x, int p) {
  double y[MAXN], E = 0, s = 0, l = 0;
  for (int i = 0; i < NG; i++) {
    double l_ = x[(i + NG - 1) % NG], r_ = x[(i + 1) % NG];
    y[i] = x[NG] * x[i] * x[i] + x[NG + 1] * (l_ + r_);
    E += y[i] * y[i];
  }
  for (int r = 0; r < p; r++) {
    int from = displs[(r + p - 1) % p]; /* the left rank's first y */
    for (int i = displs[r]; i < displs[r] + counts[r]; i++) {
      double z = y[i] / sqrt(E) + 0.1 * y[from];
      s += sin(y[i]);
      l += z * z * z + weight(i) * z;
    }
  }
  return l + s;
}

static double xall[MAXN + 2];
/* The serial loss as a function of one entry of xall, for finite differences. */
static double eval(void *ctx) { return serial_loss(xall, *(const int *)ctx); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  const int P = fz_size;
  int dims[1] = {fz_size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  NG = 0;
  for (int r = 0; r < P; r++) {
    counts[r] = 3 + r % 2;
    displs[r] = NG;
    NG += counts[r];
  }
  fz_seed(33);
  fz_fill(xall, NG, -1, 1);
  xall[NG] = 0.7, xall[NG + 1] = -0.3;
  double x[MAXN + 2], dx[MAXN + 2], out = 0, dout = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NG + 2; i++) x[i] = fz_rank == 0 ? xall[i] : 0;
  double value = 0;
  loss(x, &value);
  fz_zero(dx, NG + 2);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  if (fz_rank == 0) {
    fz_check("distributed value vs serial", value, serial_loss(xall, P), 1e-12);
    double ds[MAXN + 2];
    fz_zero(ds, NG + 2);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_vs_serial("rank 0 gradient vs serial", dx, ds, NG + 2, eval, (void *)&P, xall, 2);
  } else {
    double zero[MAXN + 2];
    fz_zero(zero, NG + 2);
    fz_check_arr("other ranks' gradient is zero", dx, zero, NG + 2, 0);
  }
  /* forward mode: a direction on rank 0's input, the tangent of the loss on rank 0 */
  double v[MAXN + 2], tout = 0, o2 = 0;
  fz_fill(v, NG + 2, -1, 1);
  if (fz_rank != 0) fz_zero(v, NG + 2);
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, &o2, &tout);
  if (fz_rank == 0) {
    double dot = 0;
    for (int i = 0; i < NG + 2; i++) dot += dx[i] * v[i];
    fz_check("forward <J v> = <grad, v>", tout, dot, 1e-10);
  }
  MPI_Comm_free(&ring);
  return fz_mpi_finish();
}
