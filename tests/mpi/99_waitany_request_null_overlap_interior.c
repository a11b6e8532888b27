// MPI: 2 3
// OPT: O0 O2
// Communication hidden behind computation, completed in arrival order, as halo codes
// write it: the requests start as MPI_REQUEST_NULL and only existing neighbours post
// MPI_Irecv/MPI_Isend; the interior points are updated while the ghosts travel, then
// `MPI_Waitany` over the two receives (MPI_REQUEST_NULL entries at the ends) updates the
// boundary point whose ghost arrived, until it returns MPI_UNDEFINED; the sends complete
// with MPI_Waitall. Three explicit steps of a nonlinear heat equation; the gradient of a
// weighted norm (MPI_Allreduce, seeded on rank 0) against the serial program's
// (differentiated too, against central differences) to 1e-12; forward mode against
// reverse by the dot-product identity on every rank.
#include <mpi.h>
#include <math.h>
#include <string.h>
#include "fz_test.h"
#include "fz_mpi.h"
extern double __enzyme_fwddiff(void *, ...);
#define NLOC 5
#define MAXP 4
#define STEPS 3
void run(const double *u0, double *loss) {
  double u[NLOC + 2] = {0}, v[NLOC + 2] = {0};
  memcpy(&u[1], u0, NLOC * sizeof(double));
  int lo = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL, hi = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  for (int s = 0; s < STEPS; s++) {
    MPI_Request rq[4];
    for (int q = 0; q < 4; q++) rq[q] = MPI_REQUEST_NULL;
    if (lo != MPI_PROC_NULL) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, lo, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, lo, 2, MPI_COMM_WORLD, &rq[2]);
    }
    if (hi != MPI_PROC_NULL) {
      MPI_Irecv(&u[NLOC + 1], 1, MPI_DOUBLE, hi, 2, MPI_COMM_WORLD, &rq[1]);
      MPI_Isend(&u[NLOC], 1, MPI_DOUBLE, hi, 1, MPI_COMM_WORLD, &rq[3]);
    }
    /* interior points while the halo travels */
    for (int i = 2; i < NLOC; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.05 * u[i] * u[i] * u[i];
    for (;;) {
      int idx;
      MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
      if (idx == MPI_UNDEFINED) break;
      int i = idx == 0 ? 1 : NLOC;
      v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.05 * u[i] * u[i] * u[i];
    }
    if (lo == MPI_PROC_NULL) v[1] = u[1] + 0.2 * (u[0] - 2 * u[1] + u[2]) - 0.05 * u[1] * u[1] * u[1];
    if (hi == MPI_PROC_NULL) v[NLOC] = u[NLOC] + 0.2 * (u[NLOC - 1] - 2 * u[NLOC] + u[NLOC + 1]) - 0.05 * u[NLOC] * u[NLOC] * u[NLOC];
    MPI_Waitall(2, &rq[2], MPI_STATUSES_IGNORE);
    memcpy(&u[1], &v[1], NLOC * sizeof(double));
  }
  double s = 0, t;
  for (int i = 1; i <= NLOC; i++) s += u[i] * u[i] * (1 + 0.1 * (i - 1 + fz_rank * NLOC));
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *loss = t;
}
double serial(const double *u0, int n) {
  double u[MAXP * NLOC + 2] = {0}, v[MAXP * NLOC + 2] = {0};
  memcpy(&u[1], u0, n * sizeof(double));
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= n; i++) v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.05 * u[i] * u[i] * u[i];
    memcpy(&u[1], &v[1], n * sizeof(double));
  }
  double s = 0;
  for (int i = 1; i <= n; i++) s += u[i] * u[i] * (1 + 0.1 * (i - 1));
  return s;
}
static double uall[MAXP * NLOC];
static double eval(void *ctx) { (void)ctx; return serial(uall, fz_size * NLOC); }
int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int n = fz_size * NLOC;
  fz_seed(99);
  fz_fill(uall, n, -1, 1);
  double *u = uall + fz_rank * NLOC;
  double du[NLOC] = {0}, loss = 0, dloss = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)run, enzyme_dup, u, du, enzyme_dup, &loss, &dloss);
  double gu[MAXP * NLOC];
  fz_gather(du, NLOC, gu);
  if (fz_rank == 0) {
    double su[MAXP * NLOC] = {0};
    fz_check("loss vs serial", loss, serial(uall, n), 1e-12);
    __enzyme_autodiff((void *)serial, enzyme_dup, uall, su, enzyme_const, n);
    fz_check_vs_serial("d/du0 vs serial", gu, su, n, eval, 0, uall, 1);
  }
  double tu[NLOC], tl = 0, mine = 0, want = 0;
  for (int i = 0; i < NLOC; i++) tu[i] = 0.05 * ((i + fz_rank) % 4) - 0.07;
  for (int i = 0; i < NLOC; i++) mine += tu[i] * du[i];
  MPI_Allreduce(&mine, &want, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  __enzyme_fwddiff((void *)run, enzyme_dup, u, tu, enzyme_dup, &loss, &tl);
  fz_check("forward . v = reverse . v", tl, want, 1e-10);
  return fz_mpi_finish();
}
