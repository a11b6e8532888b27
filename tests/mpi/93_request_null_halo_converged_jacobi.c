// MPI: 2 3
// OPT: O0 O2
// A Jacobi solver of -u'' + c u = f on a line as MPI codes write it: the halo requests start as
// MPI_REQUEST_NULL and only the existing neighbours post MPI_Irecv/MPI_Isend (the ends
// post nothing), MPI_Waitall over all four; the iteration runs until the MPI_Allreduce
// (MPI_MAX) of the local update norms falls below a tolerance (a data-dependent trip
// count, the same on every rank), the loss a weighted norm of the solution
// (MPI_Allreduce, seeded on rank 0 only). The gradient with respect to c and f
// (distributed) against the serial solver's (same stopping rule; differentiated too,
// against central differences) to 1e-12, the iteration counts equal; forward mode
// against reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <math.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 6
#define MAXP 4
#define MAXIT 200
#define TOL 1e-6
static int iters_done;
/* Jacobi for -u'' + c u = f on a line, boundary values u = 0; each rank owns NLOC points with ghosts u[0], u[NLOC+1]. */
void solve(const double *c, const double *f, double *loss) {
  double u[NLOC + 2] = {0}, v[NLOC + 2] = {0};
  int left = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int right = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  int it = 0;
  double res = 1;
  while (res > TOL && it < MAXIT) {
    MPI_Request rq[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (left != MPI_PROC_NULL) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[1]);
    }
    if (right != MPI_PROC_NULL) {
      MPI_Irecv(&u[NLOC + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[2]);
      MPI_Isend(&u[NLOC], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[3]);
    }
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    double lres = 0;
    for (int i = 1; i <= NLOC; i++) {
      v[i] = (f[i - 1] + u[i - 1] + u[i + 1]) / (2 + c[i - 1]);
      lres = fmax(lres, fabs(v[i] - u[i]));
    }
    memcpy(&u[1], &v[1], NLOC * sizeof(double));
    MPI_Allreduce(&lres, &res, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    it++;
  }
  iters_done = it;
  double s = 0, t;
  for (int i = 1; i <= NLOC; i++) s += u[i] * u[i] * (1 + 0.05 * (i + fz_rank * NLOC));
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *loss = t;
}
static int serial_iters;
double serial(const double *c, const double *f, int n) {
  double u[MAXP * NLOC + 2] = {0}, v[MAXP * NLOC + 2] = {0};
  int it = 0; double res = 1;
  while (res > TOL && it < MAXIT) {
    res = 0;
    for (int i = 1; i <= n; i++) {
      v[i] = (f[i - 1] + u[i - 1] + u[i + 1]) / (2 + c[i - 1]);
      res = fmax(res, fabs(v[i] - u[i]));
    }
    memcpy(&u[1], &v[1], n * sizeof(double));
    it++;
  }
  serial_iters = it;
  double s = 0;
  for (int i = 1; i <= n; i++) s += u[i] * u[i] * (1 + 0.05 * i);
  return s;
}
static double call[MAXP * NLOC], fall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(call, fall, fz_size * NLOC); }
int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(93);
  fz_fill(call, n, 0.3, 0.8);
  fz_fill(fall, n, -1, 1);
  double *c = call + fz_rank * NLOC, *f = fall + fz_rank * NLOC;
  double dc[NLOC] = {0}, df[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)solve, enzyme_dup, c, dc, enzyme_dup, f, df, enzyme_dup, &loss, &dloss);
  double gc[MAXP * NLOC], gf[MAXP * NLOC];
  fz_gather(dc, NLOC, gc); fz_gather(df, NLOC, gf);
  if (fz_rank == 0) {
    double sc[MAXP * NLOC] = {0}, sf[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(call, fall, n), 1e-12);
    fz_check("iterations vs serial", iters_done, serial_iters, 0);
    __enzyme_autodiff((void *)serial, enzyme_dup, call, sc, enzyme_dup, fall, sf, enzyme_const, n);
    fz_check_vs_serial("d/dc vs serial", gc, sc, n, eval, 0, call, 1);
    fz_check_vs_serial("d/df vs serial", gf, sf, n, eval, 0, fall, 1);
  }
  double tc[NLOC], tf[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tc[i] = 0.05 * ((i + fz_rank) % 4) - 0.07, tf[i] = 0.03 * (i % 3) - 0.02;
  for (int i = 0; i < NLOC; i++) mine += tc[i] * dc[i] + tf[i] * df[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)solve, enzyme_dup, c, tc, enzyme_dup, f, tf, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
