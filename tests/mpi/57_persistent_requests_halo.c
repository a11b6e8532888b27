// MPI: 2 4
// OPT: O0 O2
// The 1-D heat equation with persistent halo requests, as production stencils set them
// up: MPI_Recv_init/MPI_Send_init once before the time loop, MPI_Startall and
// MPI_Waitall every step, MPI_Start + MPI_Wait of one more persistent pair for a
// last exchange, MPI_Request_free at the end. Only rank 0 seeds the energy, so the
// gathered gradient equals the serial program's (itself checked against central finite
// differences); forward mode is checked with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define NLOC 10
#define STEPS 8

void energy(const double *u0, const double *kappa, double *e) {
  double u[NLOC + 2], v[NLOC + 2];
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  for (int i = 0; i < NLOC; i++) u[i + 1] = u0[i];
  MPI_Request req[4], last[2];
  MPI_Recv_init(&u[0], 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &req[0]);
  MPI_Recv_init(&u[NLOC + 1], 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &req[1]);
  MPI_Send_init(&u[NLOC], 1, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req[2]);
  MPI_Send_init(&u[1], 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &req[3]);
  MPI_Recv_init(&u[0], 1, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, &last[0]);
  MPI_Send_init(&u[NLOC], 1, MPI_DOUBLE, right, 12, MPI_COMM_WORLD, &last[1]);
  for (int t = 0; t < STEPS; t++) {
    MPI_Startall(4, req);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= NLOC; i++)
      v[i] = u[i] + kappa[0] * (u[i - 1] - 2 * u[i] + u[i + 1]) + kappa[1] * u[i] * u[i];
    for (int i = 1; i <= NLOC; i++) u[i] = v[i];
  }
  MPI_Start(&last[0]);
  MPI_Start(&last[1]);
  MPI_Wait(&last[1], MPI_STATUS_IGNORE);
  MPI_Wait(&last[0], MPI_STATUS_IGNORE);
  for (int k = 0; k < 4; k++) MPI_Request_free(&req[k]);
  MPI_Request_free(&last[0]);
  MPI_Request_free(&last[1]);
  double local = u[0] * u[1];
  for (int i = 1; i <= NLOC; i++) local += u[i] * u[i] * (1.0 + 0.01 * i);
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double serial_energy(const double *u0, const double *kappa, int n) {
  double u[4 * NLOC], v[4 * NLOC];
  for (int i = 0; i < n; i++) u[i] = u0[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < n; i++)
      v[i] = u[i] + kappa[0] * (u[(i + n - 1) % n] - 2 * u[i] + u[(i + 1) % n]) +
             kappa[1] * u[i] * u[i];
    for (int i = 0; i < n; i++) u[i] = v[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] * (1.0 + 0.01 * (i % NLOC + 1));
  /* every block's first entry times its left neighbour's last (the last exchange) */
  for (int b = 0; b < n; b += NLOC) e += u[(b + n - 1) % n] * u[b];
  return e;
}

static double uall[4 * NLOC], kappa[2] = {0.15, 0.02};
static int NG;
static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, kappa, NG);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  NG = fz_size * NLOC;
  fz_seed(24);
  fz_fill(uall, NG, -1, 1);
  double u0[NLOC], du[NLOC], dk[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  for (int i = 0; i < NLOC; i++) u0[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  __enzyme_autodiff((void *)energy, enzyme_dup, u0, du, enzyme_dup, kappa, dk, enzyme_dup, &e,
                    &de);
  double dall[4 * NLOC], dks[2];
  fz_gather(du, NLOC, dall);
  MPI_Reduce(dk, dks, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  /* Forward mode: sum over ranks of <J v> vs sum of <grad, v>. */
  double vu[NLOC], vk[2] = {0.3, -0.7}, te = 0, e2;
  for (int i = 0; i < NLOC; i++) vu[i] = 0.1 * (i + 1) - 0.05 * fz_rank;
  __enzyme_fwddiff((void *)energy, enzyme_dup, u0, vu, enzyme_dup, kappa, vk, enzyme_dup, &e2,
                   &te);
  double dot = 0;
  for (int i = 0; i < NLOC; i++) dot += du[i] * vu[i];
  double dot_all, dk0[2];
  MPI_Allreduce(&dot, &dot_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(dk, dk0, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  dot_all += dk0[0] * vk[0] + dk0[1] * vk[1];
  fz_check("forward vs reverse", te, dot_all, 1e-12);
  if (fz_rank == 0) {
    double ds[4 * NLOC], dks_serial[2] = {0, 0};
    fz_zero(ds, NG);
    __enzyme_autodiff((void *)serial_energy, enzyme_dup, uall, ds, enzyme_dup, kappa,
                      dks_serial, enzyme_const, NG);
    fz_check_arr("gathered vs serial", dall, ds, NG, 1e-12);
    fz_check_arr("dkappa vs serial", dks, dks_serial, 2, 1e-12);
    for (int k = 0; k < NG; k += 7) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &uall[k]), 1e-6);
    }
  }
  return fz_mpi_finish();
}
