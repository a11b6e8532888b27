// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Neighbor_allgather` (MPI)
// EXPECT-ERROR: Ferrozyme differentiates MPI_Send/Ssend/Rsend/Recv
// EXPECT-ERROR-LINE: MPI_Neighbor_allgather(&mine
// A neighbourhood collective on a Cartesian communicator (what a stencil code written for
// MPI-3 uses instead of one MPI_Sendrecv per direction) in the differentiated function:
// not differentiated yet, refused at compile time naming the routine, its line, the
// routines that are differentiated and what to do (hpc38 checked that it is not taken
// for an inactive call). (Open MPI's C ABI is declared here, so the test needs no MPI
// installation: the pass stops before linking.)
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Comm_size(void *, int *);
int MPI_Cart_create(void *, int, const int *, const int *, int, void **);
int MPI_Neighbor_allgather(const void *, int, void *, void *, int, void *, void *);
int MPI_Comm_free(void **);

void energy(const double *x, double *e) {
  int size, dims[1], periods[1] = {1};
  MPI_Comm_size(&ompi_mpi_comm_world, &size);
  dims[0] = size;
  void *cart;
  MPI_Cart_create(&ompi_mpi_comm_world, 1, dims, periods, 0, &cart);
  double mine = x[0] * x[0], got[2];
  MPI_Neighbor_allgather(&mine, 1, &ompi_mpi_double, got, 1, &ompi_mpi_double, cart);
  *e = got[0] * got[1];
  MPI_Comm_free(&cart);
}

int main(void) {
  double x = 1, dx = 0, e, de = 1;
  __enzyme_autodiff((void *)energy, enzyme_dup, &x, &dx, enzyme_dup, &e, &de);
  return (int)dx;
}
