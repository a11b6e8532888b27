// MPI: 2 4
// OPT: O0 O2
// A ring exchange with blocking MPI_Send/MPI_Recv (even ranks send first, odd ranks
// receive first): each rank's output depends on its left neighbour's input, so the
// adjoint of every Send is a Recv and vice versa. The gradient gathered on rank 0 is
// compared with the serial program's; forward mode (tangents travel with the messages)
// with the dot-product identity.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 5

/* y = sin(left's x^2) + x, then a local loss. */
double ring(const double *x, int n) {
  int right = (fz_rank + 1) % fz_size, left = (fz_rank + fz_size - 1) % fz_size;
  double out[N], in[N];
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  if (fz_rank % 2 == 0) {
    MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    MPI_Recv(in, n, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, n, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, n, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
  }
  double l = 0;
  for (int i = 0; i < n; i++) {
    double y = sin(in[i]) + x[i];
    l += (i + 1) * y * y;
  }
  return l;
}

/* The serial program: all ranks' data in one array, the sum of the local losses. */
double serial(const double *x, int p) {
  double l = 0;
  for (int r = 0; r < p; r++) {
    const double *mine = x + r * N, *leftx = x + ((r + p - 1) % p) * N;
    for (int i = 0; i < N; i++) {
      double y = sin(leftx[i] * leftx[i]) + mine[i];
      l += (i + 1) * y * y;
    }
  }
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
  fz_seed(21);
  fz_fill(xall, P * N, -1, 1);
  double x[N], dx[N], v[N];
  for (int i = 0; i < N; i++) x[i] = xall[fz_rank * N + i];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)ring, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) v[i] = 0.5 + 0.1 * i - 0.2 * fz_rank;
  double jvp = __enzyme_fwddiff((void *)ring, enzyme_dup, x, v, enzyme_const, N);
  /* <J v> summed over ranks equals <grad, v> summed over ranks. */
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  double both[2] = {jvp, dot}, sum[2];
  MPI_Allreduce(both, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  fz_check("forward vs reverse", sum[0], sum[1], 1e-12);
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
  return fz_mpi_finish();
}
