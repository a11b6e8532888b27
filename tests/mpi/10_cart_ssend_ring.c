// MPI: 2 4
// OPT: O0 O2
// A periodic 1-D process topology built with MPI_Dims_create/MPI_Cart_create and
// MPI_Cart_shift (inactive: handles and ranks), a ring exchange on the Cartesian
// communicator with MPI_Ssend/MPI_Recv (even ranks send first), and an MPI_Reduce of an
// array with MPI_SUM to rank 0 followed by an MPI_Bcast of a scale computed there.
// The gradient gathered on rank 0 is compared with the serial program's; forward mode
// with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 4

double ring(const double *x) {
  int dims[1] = {0}, periods[1] = {1}, left, right, me;
  MPI_Comm cart;
  MPI_Dims_create(fz_size, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &me);
  MPI_Cart_shift(cart, 0, 1, &left, &right);
  double out[N], in[N], sum[N], scale = 0;
  for (int i = 0; i < N; i++) out[i] = exp(0.3 * x[i]);
  if (me % 2 == 0) {
    MPI_Ssend(out, N, MPI_DOUBLE, right, 5, cart);
    MPI_Recv(in, N, MPI_DOUBLE, left, 5, cart, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, N, MPI_DOUBLE, left, 5, cart, MPI_STATUS_IGNORE);
    MPI_Ssend(out, N, MPI_DOUBLE, right, 5, cart);
  }
  for (int i = 0; i < N; i++) in[i] *= x[i];
  MPI_Reduce(in, sum, N, MPI_DOUBLE, MPI_SUM, 0, cart);
  if (me == 0) {
    scale = 0;
    for (int i = 0; i < N; i++) scale += sum[i] * sum[i];
  }
  MPI_Bcast(&scale, 1, MPI_DOUBLE, 0, cart);
  double l = 0;
  for (int i = 0; i < N; i++) l += scale * x[i] * (i + 1);
  return l;
}

/* Ranks of a periodic 1-D Cartesian communicator without reordering are the world's. */
double serial(const double *x, int p) {
  double sum[N] = {0}, scale = 0, l = 0;
  for (int r = 0; r < p; r++)
    for (int i = 0; i < N; i++) sum[i] += exp(0.3 * x[((r + p - 1) % p) * N + i]) * x[r * N + i];
  for (int i = 0; i < N; i++) scale += sum[i] * sum[i];
  for (int r = 0; r < p; r++)
    for (int i = 0; i < N; i++) l += scale * x[r * N + i] * (i + 1);
  return l;
}

static double xall[4 * N];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, P);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(1010);
  fz_fill(xall, P * N, -1, 1);
  double x[N], dx[N], v[N];
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)ring, enzyme_dup, x, dx);
  double dall[4 * N];
  fz_gather(dx, N, dall);
  if (fz_rank == 0) {
    double ds[4 * N];
    fz_zero(ds, P * N);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_const, P);
    fz_check_arr("gathered vs serial", dall, ds, P * N, 1e-12);
    for (int k = 0; k < P * N; k += 3) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
    }
  }
  for (int i = 0; i < N; i++) v[i] = 0.5 - 0.1 * i + 0.2 * fz_rank;
  double jvp = __enzyme_fwddiff((void *)ring, enzyme_dup, x, v);
  double both[2] = {jvp, 0}, tot[2];
  for (int i = 0; i < N; i++) both[1] += dx[i] * v[i];
  MPI_Allreduce(both, tot, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", tot[0], tot[1], 1e-12);
  return fz_mpi_finish();
}
