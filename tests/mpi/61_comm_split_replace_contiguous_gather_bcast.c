// MPI: 2 4
// OPT: O0 O2
// Sub-communicators and a root-driven loop, as ensemble codes write them: MPI_Comm_split
// by rank parity, a ring shift inside each sub-communicator with MPI_Sendrecv_replace of
// one MPI_Type_contiguous block of three doubles (the type and the communicator are made
// and freed inside the differentiated function), then three rounds of MPI_Gather of each
// rank's norm to the root, which computes a damping factor from all of them, and
// MPI_Bcast of that factor, which every rank applies. Only rank 0 seeds the energy, so
// the gathered gradient equals the serial program's (itself checked against central
// finite differences); forward mode with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 6
#define BLK 3
#define ROUNDS 3
#define MAXR 4

static double weight(int r) { return 1.0 + 0.1 * r; }

void energy(const double *u0, const double *kappa, double *e) {
  double u[NLOC];
  for (int i = 0; i < NLOC; i++) u[i] = u0[i] * (1.0 + kappa[1] * i);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, fz_rank % 2, fz_rank, &sub);
  int sr, ss;
  MPI_Comm_rank(sub, &sr);
  MPI_Comm_size(sub, &ss);
  MPI_Datatype blk;
  MPI_Type_contiguous(BLK, MPI_DOUBLE, &blk);
  MPI_Type_commit(&blk);
  MPI_Sendrecv_replace(u, 1, blk, (sr + 1) % ss, 5, (sr + ss - 1) % ss, 5, sub,
                       MPI_STATUS_IGNORE);
  for (int t = 0; t < ROUNDS; t++) {
    double s = 0, all[MAXR], c = 0;
    for (int i = 0; i < NLOC; i++) s += u[i] * u[i];
    MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (fz_rank == 0) {
      double g = 0;
      for (int r = 0; r < fz_size; r++) g += weight(r) * all[r];
      c = kappa[0] / (1.0 + 0.1 * g);
    }
    MPI_Bcast(&c, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < NLOC; i++) u[i] = u[i] - c * u[i] * u[i] * u[i];
  }
  MPI_Type_free(&blk);
  MPI_Comm_free(&sub);
  double local = 0;
  for (int i = 0; i < NLOC; i++) local += u[i] * u[i] * (1.0 + 0.01 * i) + 0.3 * u[i];
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* The same on all ranks' blocks (p ranks): rank r's first BLK values come from the
 * previous rank of its parity (in rank order, cyclically). */
double serial_energy(const double *u0, const double *kappa, int p) {
  double u[MAXR * NLOC], v[MAXR * NLOC];
  for (int r = 0; r < p; r++)
    for (int i = 0; i < NLOC; i++) v[r * NLOC + i] = u0[r * NLOC + i] * (1.0 + kappa[1] * i);
  for (int k = 0; k < p * NLOC; k++) u[k] = v[k];
  for (int r = 0; r < p; r++) {
    int c = r % 2, ss = (p - c + 1) / 2, sr = r / 2;
    int prev = c + 2 * ((sr + ss - 1) % ss);
    for (int i = 0; i < BLK; i++) u[r * NLOC + i] = v[prev * NLOC + i];
  }
  for (int t = 0; t < ROUNDS; t++) {
    double g = 0;
    for (int r = 0; r < p; r++) {
      double s = 0;
      for (int i = 0; i < NLOC; i++) s += u[r * NLOC + i] * u[r * NLOC + i];
      g += weight(r) * s;
    }
    double c = kappa[0] / (1.0 + 0.1 * g);
    for (int k = 0; k < p * NLOC; k++) u[k] = u[k] - c * u[k] * u[k] * u[k];
  }
  double e = 0;
  for (int k = 0; k < p * NLOC; k++)
    e += u[k] * u[k] * (1.0 + 0.01 * (k % NLOC)) + 0.3 * u[k];
  return e;
}

static double uall[MAXR * NLOC], kappa[2] = {0.2, 0.05};
static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, kappa, fz_size);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  int ng = fz_size * NLOC;
  fz_seed(61);
  fz_fill(uall, ng, -1, 1);
  double u0[NLOC], du[NLOC], dk[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) u0[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u0, du, enzyme_dup, kappa, dk, enzyme_dup, &e,
                    &de);
  double dall[MAXR * NLOC], dks[2];
  fz_gather(du, NLOC, dall);
  MPI_Reduce(dk, dks, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double vu[NLOC], vk[2] = {0.4, -0.6}, te = 0, e2;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.07 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u0, vu, enzyme_dup, kappa, vk, enzyme_dup, &e2,
                   &te);
  double dot = 0, dot_all, dk0[2];
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(dk, dk0, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  dot_all += dk0[0] * vk[0] + dk0[1] * vk[1];
  fz_check("forward vs reverse", te, dot_all, 1e-12);
  if (fz_rank == 0) {
    fz_check("value vs serial", e, serial_energy(uall, kappa, fz_size), 1e-12);
    double ds[MAXR * NLOC], dks_serial[2] = {0, 0};
    fz_zero(ds, ng);
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, uall, ds, enzyme_dup, kappa,
                      dks_serial, enzyme_const, fz_size);
    fz_check_vs_serial("gathered vs serial", dall, ds, ng, eval, 0, uall, 5);
    fz_check_arr("dkappa vs serial", dks, dks_serial, 2, 1e-12);
    fz_check("dkappa0 serial vs fd", dks_serial[0], fz_fd_ptr(eval, 0, &kappa[0]), 1e-6);
    fz_check("dkappa1 serial vs fd", dks_serial[1], fz_fd_ptr(eval, 0, &kappa[1]), 1e-6);
  }
  return fz_mpi_finish();
}
