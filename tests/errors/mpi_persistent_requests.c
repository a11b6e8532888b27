// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Bsend_init` (MPI)
// EXPECT-ERROR: buffered and ready-mode persistent sends are not differentiated
// EXPECT-ERROR-LINE: MPI_Bsend_init(x
// Persistent requests set up with MPI_Send_init/MPI_Recv_init are differentiated
// (tests/mpi/57); a buffered persistent send (MPI_Bsend_init, whose buffer MPI_Buffer_attach
// manages) is an error naming the routine and the remedy (MPI_Send_init), not a silent
// copy. (Open MPI's C ABI is declared here, so the test needs no MPI installation: the
// pass stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Bsend_init(const void *, int, void *, int, int, void *, void **);
int MPI_Recv_init(void *, int, void *, int, int, void *, void **);
int MPI_Start(void **);
int MPI_Wait(void **, void *);
int MPI_Request_free(void **);

double exchange(double *x, double *y, int n, int peer) {
  void *req[2];
  MPI_Bsend_init(x, n, &ompi_mpi_double, peer, 0, &ompi_mpi_comm_world, &req[0]);
  MPI_Recv_init(y, n, &ompi_mpi_double, peer, 0, &ompi_mpi_comm_world, &req[1]);
  MPI_Start(&req[1]);
  MPI_Start(&req[0]);
  MPI_Wait(&req[0], 0);
  MPI_Wait(&req[1], 0);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  return x[0] * y[n - 1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4] = {0}, dy[4] = {0};
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4,
                    enzyme_const, 1);
  return (int)dx[0];
}
