// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Bsend_init` (MPI)
// EXPECT-ERROR: set the request up with MPI_Send_init or MPI_Ssend_init
// EXPECT-ERROR-LINE: MPI_Bsend_init(x
// A persistent buffered send stays refused (its starts would need the buffered tangent
// and adjoint sends of MPI_Ibsend, which hpc47 added for MPI_Bsend/MPI_Ibsend only:
// tests/mpi/107). This was errors/hpc46_mpi_ibsend (MPI_Ibsend refused) until hpc47. Open
// MPI's C ABI is declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Bsend_init(const void *, int, void *, int, int, void *, void **);
int MPI_Start(void **);
int MPI_Wait(void **, void *);

double exchange(double *x, double *y, int n) {
  void *req;
  MPI_Bsend_init(x, n, &ompi_mpi_double, 1, 0, &ompi_mpi_comm_world, &req);
  MPI_Start(&req);
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
