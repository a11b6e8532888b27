// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Issend` (MPI)
// EXPECT-ERROR: use MPI_Isend, or MPI_Ssend/MPI_Send
// EXPECT-ERROR-LINE: MPI_Issend(x
// A nonblocking synchronous send: its completion says the receiver matched the message
// (what a nonblocking-consensus exchange, MPI_Issend + MPI_Ibarrier, relies on), which
// the derivative's standard-mode messages would not keep; refused with the remedy.
// (Ready-mode sends, MPI_Rsend/MPI_Irsend, are differentiated: tests/mpi/87.) Open MPI's
// C ABI is declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Issend(const void *, int, void *, int, int, void *, void **);
int MPI_Wait(void **, void *);

double exchange(double *x, double *y, int n) {
  void *req;
  MPI_Issend(x, n, &ompi_mpi_double, 1, 0, &ompi_mpi_comm_world, &req);
  MPI_Wait(&req, (void *)0);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4], dy[4] = {0};
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4);
  return (int)dx[0];
}
