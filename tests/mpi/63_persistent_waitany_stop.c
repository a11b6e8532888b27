// MPI: 2
// OPT: O0
// EXPECT-RUNTIME-ERROR: a wait or test of a persistent request that no MPI_Start started
// Persistent requests completed with MPI_Waitany: Ferrozyme writes MPI_Waitany with
// MPI_Wait (runtime/mpi_composed.c), and a completed persistent request stays a request
// that counts as complete, so the second MPI_Waitany would wait for the first request
// again and never for the second, dropping its adjoint. The derivative stops the program
// with the remedy (MPI_Wait/MPI_Waitall, as tests/mpi/57 completes them) instead of a
// silently wrong gradient.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

void swap_ends(const double *x, double *e) {
  double a = x[0], b = 0;
  int peer = (fz_rank + 1) % fz_size;
  MPI_Request req[2];
  MPI_Recv_init(&b, 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(&a, 1, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &req[1]);
  MPI_Startall(2, req);
  for (int k = 0; k < 2; k++) {
    int which;
    MPI_Waitany(2, req, &which, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  double l = a * b + x[1] * x[1];
  MPI_Allreduce(&l, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  double x[2] = {0.5 + fz_rank, -0.25}, dx[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)swap_ends, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  fz_check("unreachable: the derivative stops at the second MPI_Waitany", 0, 1, 0);
  return fz_mpi_finish();
}
