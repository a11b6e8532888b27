// EXPECT-ERROR: MPI_Comm_free
// EXPECT-ERROR: only when it runs at most once per call
// A communicator split and freed on every iteration of a loop in the differentiated
// function. A free that runs once is moved after the reverse sweep (which still sends the
// adjoint on the communicator, tests/mpi/45); one in a loop cannot be, so this is an error
// naming the remedy, not a reverse sweep communicating on freed communicators.
// (Open MPI's C ABI is declared here, so the test needs no MPI installation: the pass
// stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_op_sum;
int MPI_Comm_split(void *, int, int, void **);
int MPI_Comm_free(void **);
int MPI_Allreduce(const void *, void *, int, void *, void *, void *);

double rows(double *x, int n, int rank) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    void *row;
    MPI_Comm_split(&ompi_mpi_comm_world, (rank + k) % 2, rank, &row);
    double v = x[k] * x[k], t;
    MPI_Allreduce(&v, &t, 1, &ompi_mpi_double, &ompi_mpi_op_sum, row);
    s += t;
    MPI_Comm_free(&row);
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, x, dx, enzyme_const, 4, enzyme_const, 0);
  return (int)dx[0];
}
