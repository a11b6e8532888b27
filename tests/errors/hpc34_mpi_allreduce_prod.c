// EXPECT-ERROR: MPI_Allreduce with the operation `ompi_mpi_op_prod` is not differentiated
// EXPECT-ERROR: the adjoint of MPI_PROD needs the product of the other ranks' values
// EXPECT-ERROR: reduce the logarithms of the magnitudes with MPI_SUM
// EXPECT-ERROR-LINE: MPI_Allreduce(x
// MPI_Allreduce (and MPI_Reduce, MPI_Ireduce, MPI_Iallreduce) with MPI_PROD on reals is
// refused at compile time, naming the operation, in reverse mode (until hpc34 it stopped
// when the derivative ran: dx_i = dprod * prod / x_i is wrong when some x_i is zero).
// Forward mode is refused alike (hpc34_mpi_reduce_prod_fwd.c). (Open MPI's C ABI is
// declared here, so the test needs no MPI installation: the pass stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_op_prod;
int MPI_Allreduce(const void *, void *, int, void *, void *, void *);

double product(double *x, double *p, int n) {
  MPI_Allreduce(x, p, n, &ompi_mpi_double, &ompi_mpi_op_prod, &ompi_mpi_comm_world);
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, p[4], dp[4] = {0};
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_dup, p, dp, enzyme_const, 4);
  return (int)dx[0];
}
