// MPI: 2 4
// OMP_THREADS: 2
// OPT: O0 O2
// Hybrid MPI + OpenMP in C with MPI_THREAD_FUNNELED, as codes started from
// MPI_Init_thread write it: one `#pragma omp parallel` region per time step in which only
// the master thread exchanges the ghost points (`#pragma omp master` around
// MPI_Sendrecv, then `#pragma omp barrier`), the team updates the block with an orphaned
// `#pragma omp for`, and the loss's parts are summed with `parallel for reduction(+:)`
// and then across ranks with MPI_Allreduce(MPI_IN_PLACE, ...) (seeded on rank 0). The
// program asks for 2 threads with omp_set_num_threads on every rank. The gradient
// gathered on rank 0 is compared with the serial program's (itself checked against
// central finite differences); forward mode against reverse mode.
#include <mpi.h>
#include <omp.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NLOC 5
#define STEPS 8
#define MAXR 4
#define C 0.2

static double point(double l, double m, double r) {
  return m + C * (l - 2 * m + r) + 0.1 * sin(m) * l;
}

void objective(const double *u0, double *obj) {
  double u[NLOC + 2], un[NLOC + 2];
  int left = fz_rank == 0 ? MPI_PROC_NULL : fz_rank - 1;
  int right = fz_rank == fz_size - 1 ? MPI_PROC_NULL : fz_rank + 1;
  u[0] = u[NLOC + 1] = 0;
  for (int i = 1; i <= NLOC; i++) u[i] = u0[i - 1];
  for (int s = 0; s < STEPS; s++) {
#pragma omp parallel
    {
#pragma omp master
      {
        MPI_Sendrecv(&u[NLOC], 1, MPI_DOUBLE, right, 7, &u[0], 1, MPI_DOUBLE, left, 7,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 8, &u[NLOC + 1], 1, MPI_DOUBLE, right, 8,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
#pragma omp barrier
#pragma omp for
      for (int i = 1; i <= NLOC; i++) un[i] = point(u[i - 1], u[i], u[i + 1]);
    }
    for (int i = 1; i <= NLOC; i++) u[i] = un[i];
  }
  double sq = 0;
#pragma omp parallel for reduction(+ : sq)
  for (int i = 1; i <= NLOC; i++) sq += (1.0 + 0.1 * (fz_rank * NLOC + i)) * u[i] * u[i];
  MPI_Allreduce(MPI_IN_PLACE, &sq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *obj = sq;
}

double serial_objective(const double *u0, int n) {
  double u[MAXR * NLOC + 2], un[MAXR * NLOC + 2];
  u[0] = u[n + 1] = 0;
  for (int i = 1; i <= n; i++) u[i] = u0[i - 1];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= n; i++) un[i] = point(u[i - 1], u[i], u[i + 1]);
    for (int i = 1; i <= n; i++) u[i] = un[i];
  }
  double sq = 0;
  for (int i = 1; i <= n; i++) sq += (1.0 + 0.1 * i) * u[i] * u[i];
  return sq;
}

static double uall[MAXR * NLOC];
static int N;
static double eval(void *ctx) {
  (void)ctx;
  return serial_objective(uall, N);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
  omp_set_num_threads(2);
  N = NLOC * fz_size;
  fz_seed(52);
  fz_fill(uall, N, -1.0, 1.0);
  double u0[NLOC], du0[NLOC], obj = 0, dobj = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < NLOC; k++) u0[k] = uall[fz_rank * NLOC + k];
  fz_zero(du0, NLOC);
  __enzyme_autodiff((void *)objective, enzyme_dup, u0, du0, enzyme_dup, &obj, &dobj);
  fz_check("distributed objective = serial", obj, serial_objective(uall, N), 1e-12);
  double dall[MAXR * NLOC];
  fz_gather(du0, NLOC, dall);
  if (fz_rank == 0) {
    double ds[MAXR * NLOC];
    fz_zero(ds, N);
    __enzyme_autodiff((void *)serial_objective, enzyme_dup, uall, ds, enzyme_const, N);
    fz_check_vs_serial("gathered vs serial", dall, ds, N, eval, 0, uall, 3);
  }
  double v[NLOC], tobj = 0, o2 = 0;
  fz_seed(520 + fz_rank);
  fz_fill(v, NLOC, -1, 1);
  __enzyme_fwddiff((void *)objective, enzyme_dup, u0, v, enzyme_dup, &o2, &tobj);
  double mine = 0, dot = 0;
  for (int k = 0; k < NLOC; k++) mine += du0[k] * v[k];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", tobj, dot, 1e-10);
  return fz_mpi_finish();
}
