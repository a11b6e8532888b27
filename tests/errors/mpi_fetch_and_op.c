// EXPECT-ERROR: MPI_Fetch_and_op with the operation `ompi_mpi_op_sum` is not differentiated
// EXPECT-ERROR: the order of the ranks' operations
// EXPECT-ERROR-LINE: MPI_Fetch_and_op(x
// A fetching one-sided atomic with MPI_SUM stays refused (MPI_NO_OP, an atomic read, is
// differentiated: tests/mpi/43): an MPI_Fetch_and_op(MPI_SUM) in a passive-target epoch
// is an error naming it and the operation, not a silent copy. This program was MPI_Win_lock around an MPI_Put,
// refused until hpc24 differentiated passive-target epochs (tests/mpi/40, 41). (Open
// MPI's C ABI is declared here, so the test needs no MPI installation: the pass stops
// before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null, ompi_mpi_op_sum;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Fetch_and_op(const void *, void *, void *, int, long, void *, void *);
int MPI_Win_free(void **);

double counter(double *x, double *total, int n) {
  void *win;
  double old = 0;
  MPI_Win_create(total, sizeof(double), sizeof(double), &ompi_mpi_info_null,
                 &ompi_mpi_comm_world, &win);
  MPI_Win_lock(2 /* MPI_LOCK_SHARED */, 0, 0, win);
  MPI_Fetch_and_op(x, &old, &ompi_mpi_double, 0, 0, &ompi_mpi_op_sum, win);
  MPI_Win_unlock(0, win);
  MPI_Win_free(&win);
  return old * x[n - 1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, t = 0, dt = 0;
  __enzyme_autodiff((void *)counter, enzyme_dup, x, dx, enzyme_dup, &t, &dt, enzyme_const, 4);
  return (int)dx[0];
}
