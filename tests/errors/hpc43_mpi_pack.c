// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Pack` (MPI)
// EXPECT-ERROR: packing into an MPI_PACKED byte buffer is not differentiated
// EXPECT-ERROR: describe the layout with a derived datatype
// EXPECT-ERROR-LINE: MPI_Pack(y
// A halo packed by hand into a byte buffer (MPI_Pack of reals, MPI_Sendrecv of
// MPI_PACKED, MPI_Unpack), as older MPI codes write it: the adjoints would have to travel
// through bytes that carry no type. Refused with the remedy (a derived datatype, or the
// reals sent as MPI_DOUBLE); MPI_Pack_size, a query, is inactive. Open MPI's C ABI is
// declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_packed, ompi_mpi_comm_world;
int MPI_Pack_size(int, void *, void *, int *);
int MPI_Pack(const void *, int, void *, void *, int, int *, void *);
int MPI_Unpack(const void *, int, int *, void *, int, void *, void *);
int MPI_Sendrecv(const void *, int, void *, int, int, void *, int, void *, int, int, void *,
                 void *);

double exchange(const double *x, int n) {
  char buf[256], rbuf[256];
  double y[8], z[8];
  int size = 0, pos = 0;
  MPI_Pack_size(n, &ompi_mpi_double, &ompi_mpi_comm_world, &size);
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  MPI_Pack(y, n, &ompi_mpi_double, buf, sizeof buf, &pos, &ompi_mpi_comm_world);
  MPI_Sendrecv(buf, pos, &ompi_mpi_packed, 1, 0, rbuf, size, &ompi_mpi_packed, 1, 0,
               &ompi_mpi_comm_world, (void *)0);
  pos = 0;
  MPI_Unpack(rbuf, size, &pos, z, n, &ompi_mpi_double, &ompi_mpi_comm_world);
  double s = 0;
  for (int i = 0; i < n; i++) s += z[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)exchange, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
