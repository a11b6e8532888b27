// MPI: 2 3 4
// OPT: O0 O2
// A product across ranks written the way the refusal of MPI_PROD on reals suggests
// (tests/errors/hpc34_mpi_allreduce_prod.c): each element's value on every rank is
// reduced as the MPI_SUM of the logarithms of the magnitudes (MPI_Iallreduce, completed
// with MPI_Waitall together with an MPI_Iallreduce of a plain sum) and the MPI_PROD of
// the signs as MPI_INT (an integer product carries no derivative, so it is allowed),
// then exponentiated. The gradient gathered on rank 0 is compared with the serial
// program's, which multiplies directly (itself checked against central finite
// differences), to 1e-12; forward mode with the dot-product identity.
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 4
#define MAXR 4

static double uall[MAXR * NLOC];

void energy(const double *u, double *e) {
  double lg[NLOC], lsum[NLOC], s[NLOC], ssum[NLOC];
  int sg[NLOC], sprod[NLOC];
  for (int i = 0; i < NLOC; i++) {
    lg[i] = log(fabs(u[i]));
    sg[i] = u[i] < 0 ? -1 : 1;
    s[i] = u[i] * u[i];
  }
  MPI_Request req[2];
  MPI_Iallreduce(lg, lsum, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[0]);
  MPI_Iallreduce(s, ssum, NLOC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[1]);
  MPI_Allreduce(sg, sprod, NLOC, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  double t = 0;
  for (int i = 0; i < NLOC; i++) t += sprod[i] * exp(lsum[i]) * (1.0 + 0.5 * i) + 0.1 * ssum[i];
  *e = t;
}

static double serial_energy(const double *x, int ranks) {
  double t = 0;
  for (int i = 0; i < NLOC; i++) {
    double p = 1, q = 0;
    for (int r = 0; r < ranks; r++) {
      p *= x[r * NLOC + i];
      q += x[r * NLOC + i] * x[r * NLOC + i];
    }
    t += p * (1.0 + 0.5 * i) + 0.1 * q;
  }
  return t;
}

static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ng = fz_size * NLOC;
  fz_seed(71);
  for (int k = 0; k < ng; k++) uall[k] = fz_uniform(0.4, 1.3) * (fz_uniform(-1, 1) < 0 ? -1 : 1);
  double u[NLOC], du[NLOC], e = 0, de = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) u[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u, du, enzyme_dup, &e, &de);
  double dall[MAXR * NLOC];
  fz_gather(du, NLOC, dall);
  double vu[NLOC], te = 0, e2;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u, vu, enzyme_dup, &e2, &te);
  double dot = 0, dot_all;
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", te, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e, serial_energy(uall, fz_size), 1e-12);
    double ds[MAXR * NLOC], sx[MAXR * NLOC];
    fz_zero(ds, ng);
    for (int k = 0; k < ng; k++) sx[k] = uall[k];
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, sx, ds, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 3);
  }
  return fz_mpi_finish();
}
