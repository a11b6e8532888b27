// MPI: 2 4
// OPT: O0 O2
// Sub-communicators made from groups, as codes that split work between "even" and
// "odd" ranks write it: MPI_Comm_group, MPI_Group_incl of the ranks of this rank's
// parity, MPI_Comm_create with disjoint groups (the constructors are inactive), then on
// the sub-communicator an MPI_Allreduce of a weighted sum and an MPI_Sendrecv_replace
// ring shift, and on MPI_COMM_WORLD an MPI_Allreduce and an MPI_Bcast of rank 0's result;
// the groups and the communicator are freed inside the differentiated routine (the
// communicator's free runs after the reverse sweep; under a branch it is refused, which
// is why the even-ranks-only form with MPI_COMM_NULL is not used). The gradient gathered on rank 0 is
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
  MPI_Group world, mine;
  int members[MAXR], nm = 0;
  for (int r = rank % 2; r < size; r += 2) members[nm++] = r;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, nm, members, &mine);
  MPI_Comm sub;
  MPI_Comm_create(MPI_COMM_WORLD, mine, &sub);
  double local = 0, s = 0, ring[NLOC];
  for (int i = 0; i < NLOC; i++) local += (1.0 + i) * sin(u[i]);
  int srank, ssize;
  MPI_Comm_rank(sub, &srank);
  MPI_Comm_size(sub, &ssize);
  MPI_Allreduce(&local, &s, 1, MPI_DOUBLE, MPI_SUM, sub);
  for (int i = 0; i < NLOC; i++) ring[i] = u[i] * u[i];
  MPI_Sendrecv_replace(ring, NLOC, MPI_DOUBLE, (srank + 1) % ssize, 7,
                       (srank + ssize - 1) % ssize, 7, sub, MPI_STATUS_IGNORE);
  double t = s * s;
  for (int i = 0; i < NLOC; i++) t += (0.5 + i) * ring[i] * u[i];
  double tall = 0;
  MPI_Allreduce(&t, &tall, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double first = t;
  MPI_Bcast(&first, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *e = tall + 0.25 * first * local;
  MPI_Comm_free(&sub);
  MPI_Group_free(&mine);
  MPI_Group_free(&world);
}

/* The same on the whole data: rank r holds x[r*NLOC ...]; its group is the ranks of its
 * parity, in rank order. */
static double serial_energy(const double *x, int ranks) {
  double local[MAXR], t[MAXR];
  for (int r = 0; r < ranks; r++) {
    local[r] = 0;
    for (int i = 0; i < NLOC; i++) local[r] += (1.0 + i) * sin(x[r * NLOC + i]);
  }
  for (int r = 0; r < ranks; r++) {
    int nm = 0, k = 0, m[MAXR];
    for (int q = r % 2; q < ranks; q += 2) {
      if (q == r) k = nm;
      m[nm++] = q;
    }
    double s = 0;
    for (int j = 0; j < nm; j++) s += local[m[j]];
    int from = m[(k + nm - 1) % nm];
    t[r] = s * s;
    for (int i = 0; i < NLOC; i++) {
      double v = x[from * NLOC + i];
      t[r] += (0.5 + i) * v * v * x[r * NLOC + i];
    }
  }
  double tall = 0, e = 0;
  for (int r = 0; r < ranks; r++) tall += t[r];
  for (int r = 0; r < ranks; r++) e += tall + 0.25 * t[0] * local[r]; /* every rank's e */
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
