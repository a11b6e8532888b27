// MPI: 2
// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: an MPI datatype that is not predefined (derived datatypes are not differentiated)
// A 2-D field stored row-major, split by columns over the ranks, whose halo columns are
// exchanged with a derived datatype (MPI_Type_vector of NY doubles with stride NX+2,
// MPI_Type_commit), as stencil codes do. Derived datatypes are not differentiated yet:
// the adjoint of the exchange stops the program with a message saying so (never a
// silently wrong gradient); the remedy is to pack the column into a contiguous
// MPI_DOUBLE buffer, as tests/mpi/07_sendrecv_2d_halo.c does. (The handle is passed as an
// enzyme_const argument: read from a global set before the call, it stops the program
// earlier, at the global without a shadow, whose message names
// __enzyme_inactive_global.)
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define NX 3
#define NY 4

static MPI_Datatype column;

/* u is (NY, NX+2) row-major: u[j*(NX+2) + i], halo columns i = 0 and NX+1. */
void energy(const double *mine, MPI_Datatype col, double *e) {
  int left = (fz_rank + fz_size - 1) % fz_size, right = (fz_rank + 1) % fz_size;
  double u[NY * (NX + 2)], local = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= NX; i++) u[j * (NX + 2) + i] = mine[j * NX + (i - 1)];
  MPI_Sendrecv(&u[NX], 1, col, right, 0, &u[0], 1, col, left, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (int j = 0; j < NY; j++)
    for (int i = 1; i <= NX; i++) {
      double d = u[j * (NX + 2) + i] - u[j * (NX + 2) + i - 1];
      local += d * d * (1 + 0.1 * j);
    }
  MPI_Allreduce(&local, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  MPI_Type_vector(NY, 1, NX + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  fz_seed(14 + fz_rank);
  double x[NX * NY], dx[NX * NY], e = 0, de = fz_rank == 0 ? 1 : 0;
  fz_fill(x, NX * NY, -1, 1);
  fz_zero(dx, NX * NY);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, column, enzyme_dup, &e, &de);
  fz_check("unreachable: the derived datatype stops the program", 0, 1, 0);
  MPI_Type_free(&column);
  return fz_mpi_finish();
}
