// MPI: 2 3
// OPT: O0 O2
// In-place nonblocking collectives completed by polling, as overlapping codes write them:
// MPI_Iallreduce(MPI_IN_PLACE, ...), an inclusive MPI_Iscan(MPI_IN_PLACE, ...),
// MPI_Ireduce_scatter(MPI_IN_PLACE, ...) with uneven counts (rank r keeps r + 1 entries
// of the reduced vector) and an MPI_Ibcast from rank 1, all four completed by a
// `while (!done) MPI_Testall(...)` loop. MPI_Iscan and MPI_Ireduce_scatter were
// missing-derivative errors (hpc43). The gradient (distributed) against the serial
// program's (differentiated too, against central differences) to 1e-12; forward mode
// against reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 3
#define MAXP 4
#define TOT (MAXP * (MAXP + 1) / 2)

void step(const double *x, double *loss) {
  /* uneven blocks: rank r keeps r + 1 entries of the reduced vector */
  int counts[MAXP], total = 0;
  for (int r = 0; r < fz_size; r++) counts[r] = r + 1, total += r + 1;
  double v[TOT], g[NLOC], p[NLOC], b[2];
  for (int j = 0; j < total; j++) v[j] = x[j % NLOC] * x[(j + 1) % NLOC] * (1 + 0.1 * j);
  for (int i = 0; i < NLOC; i++) g[i] = x[i] * x[i], p[i] = sin(x[i]);
  if (fz_rank == (1 % fz_size)) b[0] = x[0] + x[1], b[1] = x[2] * x[2];
  MPI_Request rq[4];
  MPI_Iallreduce(MPI_IN_PLACE, g, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[0]);
  MPI_Iscan(MPI_IN_PLACE, p, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
  MPI_Ireduce_scatter(MPI_IN_PLACE, v, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq[2]);
  MPI_Ibcast(b, 2, MPI_DOUBLE, 1 % fz_size, MPI_COMM_WORLD, &rq[3]);
  int done = 0;
  while (!done) MPI_Testall(4, rq, &done, MPI_STATUSES_IGNORE);
  double s = 0, t;
  for (int i = 0; i < NLOC; i++) s += g[i] * p[i] * (1 + 0.2 * fz_rank);
  for (int j = 0; j <= fz_rank; j++) s += v[j] * v[j] * 0.1;
  s += b[0] * b[1] * (fz_rank + 1);
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *loss = t;
}

double serial(const double *x, int np) {
  int total = np * (np + 1) / 2;
  double g[NLOC] = {0}, v[TOT] = {0}, s = 0;
  for (int r = 0; r < np; r++)
    for (int i = 0; i < NLOC; i++) g[i] += x[r * NLOC + i] * x[r * NLOC + i];
  for (int r = 0; r < np; r++)
    for (int j = 0; j < total; j++) v[j] += x[r * NLOC + j % NLOC] * x[r * NLOC + (j + 1) % NLOC] * (1 + 0.1 * j);
  const double *xb = x + (1 % np) * NLOC;
  double b0 = xb[0] + xb[1], b1 = xb[2] * xb[2];
  double p[NLOC] = {0};
  int at = 0;
  for (int r = 0; r < np; r++) {
    for (int i = 0; i < NLOC; i++) p[i] += sin(x[r * NLOC + i]);
    for (int i = 0; i < NLOC; i++) s += g[i] * p[i] * (1 + 0.2 * r);
    for (int j = 0; j <= r; j++) s += v[at + j] * v[at + j] * 0.1;
    at += r + 1;
    s += b0 * b1 * (r + 1);
  }
  return s;
}

static double xall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(xall, fz_size); }

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(100);
  fz_fill(xall, n, -1, 1);
  double *x = xall + fz_rank * NLOC;
  double dx[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, &loss, &dloss);
  double gx[MAXP * NLOC];
  fz_gather(dx, NLOC, gx);
  if (fz_rank == 0) {
    double sx[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(xall, fz_size), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, sx, enzyme_const, fz_size);
    fz_check_vs_serial("d/dx vs serial", gx, sx, n, eval, 0, xall, 1);
  }
  double tx[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tx[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NLOC; i++) mine += tx[i] * dx[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)step, enzyme_dup, x, tx, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
