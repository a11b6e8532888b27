// MPI: 2 4
// OPT: O0 O2
// One-sided atomic reads: MPI_Fetch_and_op and MPI_Get_accumulate with MPI_NO_OP, as
// codes read values other ranks may be updating. Each rank exposes its block as a window
// (MPI_Win_create); rank 0's parameter, in a second window, is read by every rank with
// MPI_Fetch_and_op(MPI_NO_OP) inside MPI_Win_lock_all/MPI_Win_unlock_all; the right
// neighbour's first two values with MPI_Get_accumulate(MPI_NO_OP) under a shared
// MPI_Win_lock; the left neighbour's last value with MPI_Get_accumulate(MPI_NO_OP) between
// MPI_Win_fences. Each rank's nonlinear energy is summed on rank 0 with MPI_Reduce. With
// MPI_NO_OP both calls are MPI_Gets for differentiation (runtime/mpi_composed.c); they were
// missing-derivative errors before (tests/errors/mpi_fetch_and_op.c keeps MPI_SUM refused).
// The gradient (every rank's block, and the parameter on rank 0) is gathered and compared
// with the serial program's (itself checked against central finite differences), and
// forward mode against reverse mode by the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 4
#define MAXP 4

/* x: this rank's N values; th: the parameter (read on rank 0); *out: the loss on rank 0 */
void loss(const double *x, const double *th, double *out) {
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int left = (me + np - 1) % np, right = (me + 1) % np;
  double u[N], par[1], a = 0, nb[2] = {0, 0}, lv = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
  par[0] = me == 0 ? th[0] : 0;
  MPI_Win wu, wp;
  MPI_Win_create(u, N * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &wu);
  MPI_Win_create(par, sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &wp);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, wp);
  MPI_Fetch_and_op(NULL, &a, MPI_DOUBLE, 0, 0, MPI_NO_OP, wp);
  MPI_Win_unlock_all(wp);
  MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wu);
  MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, nb, 2, MPI_DOUBLE, right, 0, 2, MPI_DOUBLE, MPI_NO_OP,
                     wu);
  MPI_Win_unlock(right, wu);
  MPI_Win_fence(0, wu);
  MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, &lv, 1, MPI_DOUBLE, left, N - 1, 1, MPI_DOUBLE,
                     MPI_NO_OP, wu);
  MPI_Win_fence(0, wu);
  double c = u[N - 1] * nb[0] + nb[1] * nb[1] * u[0] + lv * u[1] * u[1];
  for (int i = 0; i < N; i++) c += a * sin(u[i]);
  MPI_Reduce(&c, out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Win_free(&wu);
  MPI_Win_free(&wp);
}

/* The same on the whole periodic vector of n values, the parameter after it. */
double serial_loss(const double *x, int n) {
  int np = n / N;
  double l = 0, a = x[n];
  for (int r = 0; r < np; r++) {
    const double *u = x + r * N, *nb = x + ((r + 1) % np) * N;
    double lv = x[((r + np - 1) % np) * N + N - 1];
    double c = u[N - 1] * nb[0] + nb[1] * nb[1] * u[0] + lv * u[1] * u[1];
    for (int i = 0; i < N; i++) c += a * sin(u[i]);
    l += c;
  }
  return l;
}

static double xall[N * MAXP + 1];
static double eval(void *ctx) { return serial_loss(xall, *(const int *)ctx); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  const int n = N * fz_size;
  fz_seed(43);
  fz_fill(xall, n, -1, 1);
  xall[n] = 0.7;
  double x[N], dx[N], th[1] = {xall[n]}, dth[1] = {0};
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  if (fz_rank != 0) th[0] = 0;
  double value = 0, out = 0, dout = fz_rank == 0 ? 1 : 0;
  loss(x, th, &value);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, th, dth, enzyme_dup, &out,
                    &dout);
  double g[N * MAXP + 1];
  fz_gather(dx, N, g);
  if (fz_rank == 0) {
    g[n] = dth[0];
    fz_check("distributed value vs serial", value, serial_loss(xall, n), 1e-12);
    double ds[N * MAXP + 1];
    fz_zero(ds, n + 1);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, n);
    fz_check_vs_serial("gradient vs serial", g, ds, n + 1, eval, (void *)&n, xall, 3);
  } else {
    fz_check("other ranks' parameter gradient is zero", fabs(dth[0]), 0, 0);
  }
  /* forward mode: a direction on every rank's block and rank 0's parameter */
  double v[N], vt[1] = {0}, tout = 0, o2 = 0;
  fz_seed(430 + fz_rank);
  fz_fill(v, N, -1, 1);
  if (fz_rank == 0) vt[0] = 0.4;
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, th, vt, enzyme_dup, &o2, &tout);
  double dot = dth[0] * vt[0], all = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  MPI_Reduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) fz_check("forward <J v> = <grad, v>", tout, all, 1e-10);
  return fz_mpi_finish();
}
