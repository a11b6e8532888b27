// MPI: 2
// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: an MPI reduction operation other than MPI_SUM
// A user-defined reduction operation (MPI_Op_create, made before the differentiated
// call, as programs make them once at start-up) in an MPI_Allreduce of reals: its
// derivative depends on the user's function, which Ferrozyme does not differentiate
// through Open MPI. The derivative stops the program naming the operations it
// differentiates, instead of treating the operation as a sum (a silently wrong
// gradient for this elementwise "larger magnitude" operation).
#include <mpi.h>
#include <math.h>
#include "fz_test.h"
#include "fz_mpi.h"

static MPI_Op absmax;

static void absmax_fn(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  double *a = in, *b = inout;
  for (int i = 0; i < *len; i++)
    if (fabs(a[i]) > fabs(b[i])) b[i] = a[i];
}

void peak(const double *x, double *out) {
  double v[2] = {x[0] * x[1], sin(x[1])}, r[2];
  MPI_Allreduce(v, r, 2, MPI_DOUBLE, absmax, MPI_COMM_WORLD);
  *out = r[0] + r[1];
}

int main(int argc, char **argv) {
  fz_mpi_init(&argc, &argv);
  MPI_Op_create(absmax_fn, 1, &absmax);
  double x[2] = {0.5 + fz_rank, -0.25 * (1 + fz_rank)}, dx[2] = {0, 0}, e = 0, de = fz_rank == 0 ? 1 : 0;
  __enzyme_autodiff((void *)peak, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  fz_check("unreachable: the derivative stops at the user-defined operation", 0, 1, 0);
  MPI_Op_free(&absmax);
  return fz_mpi_finish();
}
