// MPI: 2 4
// OPT: O0 O2
// MPI_Reduce_local, the local half of a hand-written reduction (codes that pipeline a
// ring reduction or combine a received block with their own): each rank receives its
// left neighbour's vector with MPI_Sendrecv and folds it into its own with
// MPI_Reduce_local under MPI_SUM, MPI_PROD and MPI_MAX (doubles), and MPI_SUM on an
// MPI_INT count (stays Open MPI's call); the folded values are summed over the ranks
// with MPI_Allreduce. The gradient gathered on rank 0 is compared with the serial
// program's (itself checked against central finite differences) to 1e-12; forward mode
// with the dot-product identity.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 4
#define MAXR 4

static double uall[MAXR * NLOC];

void energy(const double *u, double *e) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine[NLOC], got[NLOC], s[NLOC], p[NLOC], m[NLOC];
  for (int i = 0; i < NLOC; i++) mine[i] = sin(u[i]) + 0.1 * i;
  MPI_Sendrecv(mine, NLOC, MPI_DOUBLE, (rank + 1) % size, 3, got, NLOC, MPI_DOUBLE,
               (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < NLOC; i++) s[i] = p[i] = m[i] = mine[i];
  MPI_Reduce_local(got, s, NLOC, MPI_DOUBLE, MPI_SUM);
  MPI_Reduce_local(got, p, NLOC, MPI_DOUBLE, MPI_PROD);
  MPI_Reduce_local(got, m, NLOC, MPI_DOUBLE, MPI_MAX);
  int one = 1, count = 1;
  MPI_Reduce_local(&one, &count, 1, MPI_INT, MPI_SUM);
  double t = 0, tall = 0;
  for (int i = 0; i < NLOC; i++) t += s[i] * s[i] + (1.0 + i) * p[i] + 0.5 * count * m[i];
  MPI_Allreduce(&t, &tall, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *e = tall;
}

static double serial_energy(const double *x, int ranks) {
  double tall = 0;
  for (int r = 0; r < ranks; r++) {
    int l = (r + ranks - 1) % ranks;
    for (int i = 0; i < NLOC; i++) {
      double a = sin(x[r * NLOC + i]) + 0.1 * i, b = sin(x[l * NLOC + i]) + 0.1 * i;
      double s = a + b, m = b > a ? b : a;
      tall += s * s + (1.0 + i) * a * b + 0.5 * 2 * m;
    }
  }
  return tall * ranks; /* every rank's e, seeded on each rank */
}

static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ng = fz_size * NLOC;
  fz_seed(73);
  for (int k = 0; k < ng; k++) uall[k] = fz_uniform(-1.2, 1.2);
  double u[NLOC], du[NLOC], e = 0, de = 1;
  for (int i = 0; i < NLOC; i++) u[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, &e, &de);
  double dall[MAXR * NLOC];
  fz_gather(du, NLOC, dall);
  double vu[NLOC], te = 0, e2, tsum = 0;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, &e2, &te);
  double dot = 0, dot_all;
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&te, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse (summed over ranks)", tsum, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e * fz_size, serial_energy(uall, fz_size), 1e-12);
    double ds[MAXR * NLOC], sx[MAXR * NLOC];
    fz_zero(ds, ng);
    for (int k = 0; k < ng; k++) sx[k] = uall[k];
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, sx, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 3);
  }
  return fz_mpi_finish();
}
