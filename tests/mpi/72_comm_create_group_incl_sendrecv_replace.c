// MPI: 2 4
// OPT: O0 O2
// A sub-communicator made from a group, as codes that split work between "even" and
// "odd" ranks write it: MPI_Comm_group, MPI_Group_incl of the even ranks,
// MPI_Comm_create (MPI_COMM_NULL on the odd ranks; the constructors are inactive), then
// on the sub-communicator an MPI_Allreduce of a weighted sum and an
// MPI_Sendrecv_replace ring shift, and on MPI_COMM_WORLD an MPI_Bcast of the even group's
// result to everyone; the groups and the communicator are freed inside the
// differentiated routine (after its reverse sweep). The gradient gathered on rank 0 is
// compared with the serial program's (itself checked against central finite
// differences) to 1e-12; forward mode with the dot-product identity.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 3
#define MAXR 4

static double uall[MAXR * NLOC];

void energy(const double *u, double *e) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world, evens;
  int members[MAXR], ne = 0;
  for (int r = 0; r < size; r += 2) members[ne++] = r;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, ne, members, &evens);
  MPI_Comm sub;
  MPI_Comm_create(MPI_COMM_WORLD, evens, &sub);
  double local = 0, t = 0;
  for (int i = 0; i < NLOC; i++) local += (1.0 + i) * sin(u[i]);
  if (sub != MPI_COMM_NULL) {
    int srank, ssize;
    MPI_Comm_rank(sub, &srank);
    MPI_Comm_size(sub, &ssize);
    double s = 0, ring[NLOC];
    MPI_Allreduce(&local, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
    for (int i = 0; i < NLOC; i++) ring[i] = u[i] * u[i];
    MPI_Sendrecv_replace(ring, NLOC, MPI_DOUBLE, (srank + 1) % ssize, 7,
                         (srank + ssize - 1) % ssize, 7, sub, MPI_STATUS_IGNORE);
    t = s * s;
    for (int i = 0; i < NLOC; i++) t += (0.5 + i) * ring[i] * u[i];
    MPI_Comm_free(&sub);
  }
  double tall = 0;
  MPI_Allreduce(&t, &tall, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double even_sum = t;
  MPI_Bcast(&even_sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *e = tall + 0.25 * even_sum * local;
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
}

/* The same on the whole data: ranks r hold x[r*NLOC ...]. */
static double serial_energy(const double *x, int ranks) {
  int ne = (ranks + 1) / 2;
  double s = 0;
  for (int k = 0; k < ne; k++)
    for (int i = 0; i < NLOC; i++) s += (1.0 + i) * sin(x[2 * k * NLOC + i]);
  double tsum = 0, t0 = 0;
  for (int k = 0; k < ne; k++) {
    int from = (k + ne - 1) % ne;
    double t = s * s;
    for (int i = 0; i < NLOC; i++) {
      double r = x[2 * from * NLOC + i];
      t += (0.5 + i) * r * r * x[2 * k * NLOC + i];
    }
    tsum += t;
    if (k == 0) t0 = t;
  }
  double e = 0;
  for (int r = 0; r < ranks; r++) {
    double local = 0;
    for (int i = 0; i < NLOC; i++) local += (1.0 + i) * sin(x[r * NLOC + i]);
    e += tsum + 0.25 * t0 * local; /* every rank's e, seeded on each rank */
  }
  return e;
}

static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ng = fz_size * NLOC;
  fz_seed(72);
  for (int k = 0; k < ng; k++) uall[k] = fz_uniform(-1, 1);
  double u[NLOC], du[NLOC], e = 0, de = 1;
  for (int i = 0; i < NLOC; i++) u[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, &e, &de);
  double dall[MAXR * NLOC];
  fz_gather(du, NLOC, dall);
  double vu[NLOC], te = 0, e2, esum = 0, tsum = 0;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, &e2, &te);
  double dot = 0, dot_all;
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&te, &tsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&e, &esum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse (summed over ranks)", tsum, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", esum, serial_energy(uall, fz_size), 1e-12);
    double ds[MAXR * NLOC], sx[MAXR * NLOC];
    fz_zero(ds, ng);
    for (int k = 0; k < ng; k++) sx[k] = uall[k];
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, sx, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 2);
  }
  return fz_mpi_finish();
}
