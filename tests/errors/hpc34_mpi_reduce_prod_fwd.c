// EXPECT-ERROR: MPI_Reduce with the operation `ompi_mpi_op_prod` is not differentiated
// EXPECT-ERROR-LINE: MPI_Reduce(x
// Forward mode of MPI_Reduce with MPI_PROD is refused at compile time like reverse mode
// (hpc34_mpi_allreduce_prod.c), instead of a stop when the tangent runs. An integer
// product (MPI_INT) carries no derivative and stays allowed (the `counts` reduction).
extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_int, ompi_mpi_comm_world, ompi_mpi_op_prod;
int MPI_Reduce(const void *, void *, int, void *, void *, int, void *);

double product(double *x, double *p, int *c, int n) {
  int total[4];
  MPI_Reduce(c, total, n, &ompi_mpi_int, &ompi_mpi_op_prod, 0, &ompi_mpi_comm_world);
  MPI_Reduce(x, p, n, &ompi_mpi_double, &ompi_mpi_op_prod, 0, &ompi_mpi_comm_world);
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * total[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 0, 0, 0}, p[4], dp[4] = {0};
  int c[4] = {1, 1, 1, 1};
  double t = __enzyme_fwddiff((void *)product, enzyme_dup, x, dx, enzyme_dup, p, dp,
                              enzyme_const, c, enzyme_const, 4);
  return (int)t;
}
