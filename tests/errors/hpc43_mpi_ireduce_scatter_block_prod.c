// EXPECT-ERROR: MPI_Ireduce_scatter_block with the operation `ompi_mpi_op_prod` is not differentiated
// EXPECT-ERROR-LINE: MPI_Ireduce_scatter_block(x
// The nonblocking reduce-scatters (MPI_Ireduce_scatter_block, MPI_Ireduce_scatter,
// differentiated since hpc43 like their blocking forms) keep the blocking forms'
// operations: SUM, MAX and MIN; MPI_PROD on reals is refused at compile time, naming the
// operation (as errors/hpc34_mpi_allreduce_prod.c for MPI_Allreduce). Open MPI's C ABI is
// declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_op_prod;
int MPI_Ireduce_scatter_block(const void *, void *, int, void *, void *, void *, void **);
int MPI_Wait(void **, void *);

double product(double *x, double *p, int n) {
  void *req;
  MPI_Ireduce_scatter_block(x, p, n, &ompi_mpi_double, &ompi_mpi_op_prod, &ompi_mpi_comm_world, &req);
  MPI_Wait(&req, (void *)0);
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main(void) {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dx[8] = {0}, p[4], dp[4] = {0};
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_dup, p, dp, enzyme_const, 4);
  return (int)dx[0];
}
