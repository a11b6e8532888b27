// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Ibsend` (MPI)
// EXPECT-ERROR: use MPI_Isend or MPI_Issend (differentiated)
// EXPECT-ERROR-LINE: MPI_Ibsend(x
// A nonblocking buffered send: the adjoint of the matching receive would be a
// standard-mode send, which may block where the buffered one did not (two ranks that each
// buffer-send, wait, then receive: in the reverse sweep both would send first). Refused
// with the remedy. (This was errors/hpc41_mpi_issend until hpc46 differentiated
// MPI_Issend: tests/mpi/105; ready-mode sends, MPI_Rsend/MPI_Irsend: tests/mpi/87.) Open
// MPI's C ABI is declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Ibsend(const void *, int, void *, int, int, void *, void **);
int MPI_Wait(void **, void *);

double exchange(double *x, double *y, int n) {
  void *req;
  MPI_Ibsend(x, n, &ompi_mpi_double, 1, 0, &ompi_mpi_comm_world, &req);
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
