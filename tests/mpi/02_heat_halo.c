// MPI: 2 4
// OPT: O0 O2
// A 1-D heat equation on a periodic domain split across the ranks, with a halo exchange
// (blocking MPI_Send/MPI_Recv, ordered by rank parity) every time step, and the energy
// summed with MPI_Allreduce. Every rank returns the global energy and seeds its own
// copy with 1 (Enzyme's semantics), so the gradient computed is that of P x energy:
// gathered on rank 0 it must equal P times the serial program's gradient; the diffusion
// coefficient's derivatives, summed over the ranks, likewise.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define NLOC 12
#define STEPS 10

static void exchange(double *u, int n) {
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  if (fz_rank % 2 == 0) {
    MPI_Send(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
    MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&u[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
  }
}

double energy(const double *u0, double kappa) {
  double u[NLOC + 2], v[NLOC + 2];
  for (int i = 0; i < NLOC; i++) u[i + 1] = u0[i];
  for (int t = 0; t < STEPS; t++) {
    exchange(u, NLOC);
    for (int i = 1; i <= NLOC; i++) v[i] = u[i] + kappa * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i <= NLOC; i++) u[i] = v[i];
  }
  double local = 0, total;
  for (int i = 1; i <= NLOC; i++) local += u[i] * u[i];
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

double serial_energy(const double *u0, double kappa, int n) {
  double u[4 * NLOC], v[4 * NLOC];
  for (int i = 0; i < n; i++) u[i] = u0[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < n; i++)
      v[i] = u[i] + kappa * (u[(i + n - 1) % n] - 2 * u[i] + u[(i + 1) % n]);
    for (int i = 0; i < n; i++) u[i] = v[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i];
  return e;
}

static double uall[4 * NLOC], kappa = 0.2;
static int NG;
static double eval(void *ctx) {
  (void)ctx;
  return serial_energy(uall, kappa, NG);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  NG = fz_size * NLOC;
  fz_seed(22);
  fz_fill(uall, NG, -1, 1);
  double u0[NLOC], du[NLOC];
  for (int i = 0; i < NLOC; i++) u0[i] = uall[fz_rank * NLOC + i];
  fz_zero(du, NLOC);
  double dk = __enzyme_autodiff((void *)energy, enzyme_dup, u0, du, enzyme_out, kappa);
  double dall[4 * NLOC], dk_sum;
  fz_gather(du, NLOC, dall);
  MPI_Reduce(&dk, &dk_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (fz_rank == 0) {
    double ds[4 * NLOC], want[4 * NLOC];
    fz_zero(ds, NG);
    double dks = __enzyme_autodiff((void *)serial_energy, enzyme_dup, uall, ds, enzyme_out,
                                   kappa, enzyme_const, NG);
    for (int k = 0; k < NG; k++) want[k] = fz_size * ds[k];
    fz_check_arr("gathered vs P x serial", dall, want, NG, 1e-12);
    fz_check("sum of dkappa vs P x serial", dk_sum, fz_size * dks, 1e-12);
    for (int k = 0; k < NG; k += 5) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &uall[k]), 1e-6);
    }
    fz_check("serial dkappa vs fd", dks, fz_fd_ptr(eval, 0, &kappa), 1e-6);
  }
  return fz_mpi_finish();
}
