// MPI: 2 4
// OPT: O0 O2
// A non-periodic 1-D diffusion whose end ranks talk to MPI_PROC_NULL (the usual way to
// write a halo exchange without special cases): the halo is exchanged with blocking
// MPI_Send/MPI_Recv (even/odd ordering) in one variant and with MPI_Isend/MPI_Irecv/
// MPI_Waitall in the other. A receive from MPI_PROC_NULL leaves its buffer untouched and
// its status carries MPI_ANY_TAG; the adjoint of a send to MPI_PROC_NULL must add
// nothing. Both gradients are gathered on rank 0 and compared with the serial program's.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define N 6
#define STEPS 4

static void step(double *u, double lo, double hi, double *next) {
  for (int i = 0; i < N; i++) {
    double l = i == 0 ? lo : u[i - 1], r = i == N - 1 ? hi : u[i + 1];
    next[i] = u[i] + 0.2 * (l - 2 * u[i] + r) + 0.05 * u[i] * u[i];
  }
  for (int i = 0; i < N; i++) u[i] = next[i];
}

static double local_loss(const double *u) {
  double l = 0;
  for (int i = 0; i < N; i++) l += sin(u[i]) * (i + 1);
  return l;
}

double blocking(const double *u0) {
  int left = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int right = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  double u[N], next[N];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    double lo = 0, hi = 0;
    if (fz_rank % 2 == 0) {
      MPI_Send(&u[N - 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
      MPI_Send(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
      MPI_Recv(&lo, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&hi, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&lo, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&hi, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&u[N - 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
      MPI_Send(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD);
    }
    step(u, lo, hi, next);
  }
  return local_loss(u);
}

double nonblocking(const double *u0) {
  int left = fz_rank > 0 ? fz_rank - 1 : MPI_PROC_NULL;
  int right = fz_rank < fz_size - 1 ? fz_rank + 1 : MPI_PROC_NULL;
  double u[N], next[N];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    double lo = 0, hi = 0;
    MPI_Request req[4];
    MPI_Irecv(&lo, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&hi, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[N - 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    step(u, lo, hi, next);
  }
  return local_loss(u);
}

double serial(const double *u0, int p) {
  double u[4 * N], next[4 * N];
  int n = p * N;
  for (int i = 0; i < n; i++) u[i] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++) {
      double l = i == 0 ? 0 : u[i - 1], r = i == n - 1 ? 0 : u[i + 1];
      next[i] = u[i] + 0.2 * (l - 2 * u[i] + r) + 0.05 * u[i] * u[i];
    }
    for (int i = 0; i < n; i++) u[i] = next[i];
  }
  double l = 0;
  for (int i = 0; i < n; i++) l += sin(u[i]) * (i % N + 1);
  return l;
}

static double xall[4 * N];
static int P;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xall, P);
}

/* Poisons the heap so that an adjoint read from an untouched buffer shows. */
static void dirty_heap(void) {
  for (int k = 0; k < 8; k++) {
    double *junk = malloc(64 * sizeof(double));
    for (int i = 0; i < 64; i++) junk[i] = 1e6 + i;
    free(junk);
  }
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  P = fz_size;
  fz_seed(606);
  fz_fill(xall, P * N, -1, 1);
  double x[N], dx[N], db[4 * N], dn[4 * N], ds[4 * N];
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  if (fz_rank == 0) {
    fz_zero(ds, P * N);
    __enzyme_autodiff((void *)serial, enzyme_dup, xall, ds, enzyme_const, P);
    for (int k = 0; k < P * N; k += 5) {
      char name[32];
      snprintf(name, sizeof name, "serial vs fd [%d]", k);
      fz_check(name, ds[k], fz_fd_ptr(eval, 0, &xall[k]), 1e-6);
    }
  }
  dirty_heap();
  fz_zero(dx, N);
  __enzyme_autodiff((void *)blocking, enzyme_dup, x, dx);
  fz_gather(dx, N, db);
  dirty_heap();
  fz_zero(dx, N);
  __enzyme_autodiff((void *)nonblocking, enzyme_dup, x, dx);
  fz_gather(dx, N, dn);
  if (fz_rank == 0) {
    fz_check_arr("blocking vs serial", db, ds, P * N, 1e-12);
    fz_check_arr("nonblocking vs serial", dn, ds, P * N, 1e-12);
  }
  return fz_mpi_finish();
}
