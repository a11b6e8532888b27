// MPI: 2
// OPT: O0 O2
// A ring shift of a strided column in place (MPI_Sendrecv_replace of one MPI_Type_vector
// item), as a shifting-window code writes it. MPI_Sendrecv_replace is composed of
// MPI_Sendrecv into a scratch buffer laid out by the datatype's extent
// (runtime/mpi_composed.c). It used to stop at run time (the scratch buffer took
// predefined types only), before that a compile-time missing-derivative error naming
// `MPI_Type_get_envelope`. The gradient against the analytic one: the column a rank
// received from its left neighbour times its own second column, doubled.
#include <mpi.h>
#include "fz_test.h"
#include "fz_mpi.h"

#define R 4
#define C 2

static MPI_Datatype column;

void shifted(const double *x, double *e) {
  double a[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) a[i][j] = x[i * C + j] * (j + 1);
  MPI_Sendrecv_replace(&a[0][0], 1, column, (fz_rank + 1) % fz_size, 0,
                       (fz_rank + fz_size - 1) % fz_size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double l = 0;
  for (int i = 0; i < R; i++) l += a[i][0] * a[i][1];
  MPI_Allreduce(&l, e, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  fz_seed(28 + fz_rank);
  double x[R * C], dx[R * C], e = 0, de = fz_rank == 0 ? 1 : 0;
  fz_fill(x, R * C, -1, 1);
  fz_zero(dx, R * C);
  __enzyme_autodiff((void *)shifted, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  double xp[R * C], xn[R * C];
  fz_seed(28 + (fz_rank + fz_size - 1) % fz_size);
  fz_fill(xp, R * C, -1, 1);
  fz_seed(28 + (fz_rank + 1) % fz_size);
  fz_fill(xn, R * C, -1, 1);
  for (int i = 0; i < R; i++) {
    fz_check("d/dx[i][0] (sent right)", dx[i * C], 2 * xn[i * C + 1], 1e-12);
    fz_check("d/dx[i][1] (kept)", dx[i * C + 1], 2 * xp[i * C], 1e-12);
  }
  MPI_Type_free(&column);
  return fz_mpi_finish();
}
