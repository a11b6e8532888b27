// EXPECT-ERROR: MPI_Accumulate with the operation `ompi_mpi_op_prod` is not differentiated
// EXPECT-ERROR: MPI_Accumulate is with MPI_SUM and MPI_REPLACE
// EXPECT-ERROR-LINE: MPI_Accumulate(x
// A one-sided MPI_Accumulate with a nonlinear operation (MPI_PROD here; MPI_MAX, MPI_MIN
// alike) on reals is refused at compile time, naming the operation, instead of a stop
// when the derivative runs. (Open MPI's C ABI is declared here, so the test needs no MPI
// installation: the pass stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null, ompi_mpi_op_prod;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_fence(int, void *);
int MPI_Accumulate(const void *, int, void *, int, long, int, void *, void *, void *);
int MPI_Win_free(void **);

double product(double *x, double *total, int n) {
  void *win;
  MPI_Win_create(total, sizeof(double), sizeof(double), &ompi_mpi_info_null,
                 &ompi_mpi_comm_world, &win);
  MPI_Win_fence(0, win);
  MPI_Accumulate(x, 1, &ompi_mpi_double, 0, 0, 1, &ompi_mpi_double, &ompi_mpi_op_prod, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  return total[0] * x[n - 1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, t = 1, dt = 0;
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_dup, &t, &dt, enzyme_const, 4);
  return (int)dx[0];
}
