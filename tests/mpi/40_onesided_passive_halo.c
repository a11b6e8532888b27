// MPI: 2 4
// OPT: O0 O2
// Passive-target one-sided communication, as codes write a halo exchange with locks
// instead of fences: each rank exposes its block with two ghost cells as a window
// (MPI_Win_create) and puts its first and last values into its neighbours' ghost cells,
// each Put in its own MPI_Win_lock/MPI_Win_unlock epoch (exclusive to the left, shared
// with an MPI_Win_flush to the right), then an MPI_Barrier; two nonlinear diffusion steps.
// Two parameters held by rank 0 in a second window are read by every rank with MPI_Get
// inside MPI_Win_lock_all/MPI_Win_unlock_all; the energy and a weighted sum of every rank
// are added into rank 0's memory of a window made by MPI_Win_allocate with
// MPI_Accumulate(MPI_SUM) under a shared lock; an MPI_Accumulate(MPI_REPLACE) under a lock
// writes each rank's last value into rank 0's table. This was a missing-derivative error
// (tests/errors/mpi_win_lock_passive.c); the derivative now runs the operations on an
// Open MPI window and their adjoints on a shadow window beside it
// (runtime/mpi_onesided.c). The loss is on rank 0; the gradient (every rank's block, and
// the parameters on rank 0) is gathered and compared with the serial program's (itself
// checked against central finite differences), and forward mode against reverse mode by
// the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 4
#define MAXP 4
#define STEPS 2

static double weight(int i) { return 0.3 + 0.2 * (i % 3); }

/* x: this rank's N values; th: two parameters (read on rank 0); *out: the loss on rank 0 */
void loss(const double *x, const double *th, double *out) {
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int left = (me + np - 1) % np, right = (me + 1) % np;
  double u[N + 2], un[N + 2], par[2], p[2], *tot, last[MAXP];
  for (int i = 0; i < N; i++) u[i + 1] = x[i];
  u[0] = u[N + 1] = 0;
  par[0] = me == 0 ? th[0] : 0;
  par[1] = me == 0 ? th[1] : 0;
  for (int r = 0; r < MAXP; r++) last[r] = 0;
  MPI_Win wu, wp, wt, wl;
  MPI_Win_create(u, (N + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &wu);
  MPI_Win_create(par, 2 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &wp);
  MPI_Win_allocate(2 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &tot,
                   &wt);
  MPI_Win_create(last, MAXP * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &wl);
  tot[0] = tot[1] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, wp);
  MPI_Get(p, 2, MPI_DOUBLE, 0, 0, 2, MPI_DOUBLE, wp);
  MPI_Win_unlock_all(wp);
  for (int s = 0; s < STEPS; s++) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, left, 0, wu);
    MPI_Put(&u[1], 1, MPI_DOUBLE, left, N + 1, 1, MPI_DOUBLE, wu);
    MPI_Win_unlock(left, wu);
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wu);
    MPI_Put(&u[N], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, wu);
    MPI_Win_flush(right, wu);
    MPI_Win_unlock(right, wu);
    MPI_Barrier(MPI_COMM_WORLD); /* the ghosts have arrived */
    for (int i = 1; i <= N; i++)
      un[i] = u[i] + p[0] * (u[i - 1] - 2 * u[i] + u[i + 1]) - p[1] * u[i] * u[i] * u[i];
    for (int i = 1; i <= N; i++) u[i] = un[i];
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has read its ghosts */
  }
  double c[2] = {0, 0};
  for (int i = 1; i <= N; i++) {
    c[0] += u[i] * u[i];
    c[1] += weight(me * N + i - 1) * sin(u[i]);
  }
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, wt);
  MPI_Accumulate(c, 2, MPI_DOUBLE, 0, 0, 2, MPI_DOUBLE, MPI_SUM, wt);
  MPI_Win_unlock(0, wt);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, wl);
  MPI_Accumulate(&u[N], 1, MPI_DOUBLE, 0, me, 1, MPI_DOUBLE, MPI_REPLACE, wl);
  MPI_Win_unlock(0, wl);
  MPI_Barrier(MPI_COMM_WORLD); /* rank 0's windows are complete */
  if (me == 0) {
    double l = tot[0] * tot[1] + tot[1];
    for (int r = 0; r < np; r++) l += 0.5 * (r + 1) * last[r] * last[r];
    *out = l;
  }
  MPI_Win_free(&wu);
  MPI_Win_free(&wp);
  MPI_Win_free(&wt);
  MPI_Win_free(&wl);
}

/* The same on the whole periodic vector of n values, parameters after it. */
double serial_loss(const double *x, int n) {
  double u[N * MAXP], un[N * MAXP], c0 = 0, c1 = 0, l = 0;
  const double *p = x + n;
  for (int i = 0; i < n; i++) u[i] = x[i];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++) {
      double a = u[(i + n - 1) % n], b = u[(i + 1) % n];
      un[i] = u[i] + p[0] * (a - 2 * u[i] + b) - p[1] * u[i] * u[i] * u[i];
    }
    for (int i = 0; i < n; i++) u[i] = un[i];
  }
  for (int i = 0; i < n; i++) {
    c0 += u[i] * u[i];
    c1 += weight(i) * sin(u[i]);
  }
  for (int r = 0; r < n / N; r++) l += 0.5 * (r + 1) * u[r * N + N - 1] * u[r * N + N - 1];
  return c0 * c1 + c1 + l;
}

static double xall[N * MAXP + 2];
static double eval(void *ctx) { return serial_loss(xall, *(const int *)ctx); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  const int n = N * fz_size;
  fz_seed(40);
  fz_fill(xall, n, -1, 1);
  xall[n] = 0.2, xall[n + 1] = 0.3;
  double x[N], dx[N], th[2] = {xall[n], xall[n + 1]}, dth[2] = {0, 0};
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  if (fz_rank != 0) th[0] = th[1] = 0;
  double value = 0, out = 0, dout = fz_rank == 0 ? 1 : 0;
  loss(x, th, &value);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, th, dth, enzyme_dup, &out,
                    &dout);
  double g[N * MAXP + 2];
  fz_gather(dx, N, g);
  if (fz_rank == 0) {
    g[n] = dth[0], g[n + 1] = dth[1];
    fz_check("distributed value vs serial", value, serial_loss(xall, n), 1e-12);
    double ds[N * MAXP + 2];
    fz_zero(ds, n + 2);
    __enzyme_autodiff((void *)serial_loss, enzyme_dup, xall, ds, enzyme_const, n);
    fz_check_vs_serial("gradient vs serial", g, ds, n + 2, eval, (void *)&n, xall, 3);
  } else {
    fz_check("other ranks' parameter gradient is zero", fabs(dth[0]) + fabs(dth[1]), 0, 0);
  }
  /* forward mode: a direction on every rank's block and rank 0's parameters */
  double v[N], vt[2] = {0, 0}, tout = 0, o2 = 0;
  fz_seed(400 + fz_rank);
  fz_fill(v, N, -1, 1);
  if (fz_rank == 0) vt[0] = 0.4, vt[1] = -0.7;
  __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_dup, th, vt, enzyme_dup, &o2, &tout);
  double dot = dth[0] * vt[0] + dth[1] * vt[1], all = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  MPI_Reduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) fz_check("forward <J v> = <grad, v>", tout, all, 1e-10);
  return fz_mpi_finish();
}
