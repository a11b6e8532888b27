// MPI: 2 4
// OMP_THREADS: 2
// OPT: O0 O2
// Hybrid MPI + OpenMP host `teams` (hpc37): every rank, started with
// MPI_Init_thread(MPI_THREAD_FUNNELED), runs a `teams distribute parallel for` over its
// block (the default league: one team of the rank's threads), exchanges ghost values on
// a periodic ring made by MPI_Cart_create and MPI_Cart_shift with MPI_Sendrecv, spreads
// one value per rank to every rank with MPI_Alltoall, and sums a `teams num_teams(2)`
// region's partial sums (per-team halves, an atomic update) across ranks with
// MPI_Allreduce (seeded on rank 0). The gradient gathered on rank 0 is compared with the
// serial program's (itself checked against central finite differences); forward mode
// against reverse mode. The program asks for 2 threads (omp_set_num_threads) on every
// rank.
#include <mpi.h>
#include <omp.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern void __enzyme_fwddiff(void *, ...);

#define NLOC 6
#define MAXR 4

void objective(const double *u0, double *obj, MPI_Comm ring) {
  int left, right;
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  double u[NLOC + 2], y[NLOC], send[MAXR], recv[MAXR], tot = 0;
#pragma omp teams distribute parallel for
  for (int i = 0; i < NLOC; i++) u[i + 1] = u0[i] * u0[i] + 0.3 * sin(u0[i]);
  MPI_Sendrecv(&u[NLOC], 1, MPI_DOUBLE, right, 3, &u[0], 1, MPI_DOUBLE, left, 3, ring,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 4, &u[NLOC + 1], 1, MPI_DOUBLE, right, 4, ring,
               MPI_STATUS_IGNORE);
  for (int r = 0; r < fz_size; r++) send[r] = u[1 + r % NLOC] * (1.0 + 0.5 * r);
  MPI_Alltoall(send, 1, MPI_DOUBLE, recv, 1, MPI_DOUBLE, ring);
  double from = 0;
  for (int r = 0; r < fz_size; r++) from += recv[r] * (r + 1);
#pragma omp teams num_teams(2)
  {
    int t = omp_get_team_num(), nt = omp_get_num_teams();
    int lo = t * NLOC / nt, hi = (t + 1) * NLOC / nt;
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = lo; i < hi; i++) {
      y[i] = u[i] * u[i + 2] + u[i + 1] * from;
      s += y[i] * y[i];
    }
#pragma omp atomic
    tot += s;
  }
  MPI_Allreduce(MPI_IN_PLACE, &tot, 1, MPI_DOUBLE, MPI_SUM, ring);
  *obj = tot;
}

/* The same on the whole array: rank r's block is u0[r*NLOC ...]. */
double serial_objective(const double *u0, int p) {
  int n = p * NLOC;
  double u[MAXR * NLOC], tot = 0;
  for (int i = 0; i < n; i++) u[i] = u0[i] * u0[i] + 0.3 * sin(u0[i]);
  for (int r = 0; r < p; r++) {
    double from = 0;
    for (int q = 0; q < p; q++) from += u[q * NLOC + r % NLOC] * (1.0 + 0.5 * r) * (q + 1);
    for (int i = 0; i < NLOC; i++) {
      int g = r * NLOC + i;
      double l = u[(g - 1 + n) % n], m = u[g], rr = u[(g + 1) % n];
      double y = l * rr + m * from;
      tot += y * y;
    }
  }
  return tot;
}

static double uall[MAXR * NLOC];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial_objective(uall, P);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &fz_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &fz_size);
  omp_set_num_threads(2);
  P = fz_size;
  MPI_Comm ring;
  int dims[1] = {fz_size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  fz_seed(78);
  fz_fill(uall, P * NLOC, -1.0, 1.0);
  double u0[NLOC], du0[NLOC], obj = 0, dobj = fz_rank == 0 ? 1 : 0;
  for (int k = 0; k < NLOC; k++) u0[k] = uall[fz_rank * NLOC + k];
  fz_zero(du0, NLOC);
  __enzyme_autodiff((void *)objective, enzyme_dup, u0, du0, enzyme_dup, &obj, &dobj,
                    enzyme_const, ring);
  fz_check("distributed objective = serial", obj, serial_objective(uall, P), 1e-12);
  double dall[MAXR * NLOC];
  fz_gather(du0, NLOC, dall);
  if (fz_rank == 0) {
    double ds[MAXR * NLOC];
    fz_zero(ds, P * NLOC);
    __enzyme_autodiff((void *)serial_objective, enzyme_dup, uall, ds, enzyme_const, P);
    fz_check_vs_serial("gathered vs serial", dall, ds, P * NLOC, eval, 0, uall, 3);
  }
  double v[NLOC], tobj = 0, o2 = 0;
  fz_seed(780 + fz_rank);
  fz_fill(v, NLOC, -1, 1);
  __enzyme_fwddiff((void *)objective, enzyme_dup, u0, v, enzyme_dup, &o2, &tobj,
                   enzyme_const, ring);
  double mine = 0, dot = 0;
  for (int k = 0; k < NLOC; k++) mine += du0[k] * v[k];
  MPI_Allreduce(&mine, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward <J v> = <grad, v>", tobj, dot, 1e-10);
  MPI_Comm_free(&ring);
  return fz_mpi_finish();
}
