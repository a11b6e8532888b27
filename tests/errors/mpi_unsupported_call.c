// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Mrecv` (MPI)
// EXPECT-ERROR-LINE: MPI_Mrecv(y
// An MPI routine outside the differentiated set is an error naming it: the receive of a
// matched probe's message. (It was MPI_Reduce_scatter_block until hpc22 differentiated
// that, tests/mpi/38, then MPI_Reduce_local until hpc35, tests/mpi/73, then the buffered
// send MPI_Bsend until hpc47, tests/mpi/107.) (Open MPI's
// C ABI is declared here, so the test needs no MPI installation: the pass stops before
// linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_op_sum, ompi_mpi_comm_world;
int MPI_Mrecv(void *, int, void *, void **, void *);

double exchange(double *x, double *y, int n) {
  void *message = 0;
  MPI_Mrecv(y, n, &ompi_mpi_double, &message, (void *)0);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4], dy[4] = {0};
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4);
  return (int)dx[0];
}
