// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Win_lock` (MPI)
// EXPECT-ERROR-LINE: MPI_Win_lock(1
// One-sided communication with passive-target synchronisation (MPI_Win_lock /
// MPI_Win_unlock around an MPI_Put) is not differentiated: the derivative composes
// one-sided operations of messages completed at MPI_Win_fence, which needs every rank
// to take part (a lock epoch has only the origin). It is an error naming the lock, not a
// silent copy. (Open MPI's C ABI is declared here, so the test needs no MPI
// installation: the pass stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Put(const void *, int, void *, int, long, int, void *, void *);
int MPI_Win_free(void **);

double push(double *x, double *ghost, int n) {
  void *win;
  MPI_Win_create(ghost, n * sizeof(double), sizeof(double), &ompi_mpi_info_null,
                 &ompi_mpi_comm_world, &win);
  MPI_Win_lock(1 /* MPI_LOCK_EXCLUSIVE */, 0, 0, win);
  MPI_Put(x, n, &ompi_mpi_double, 0, 0, n, &ompi_mpi_double, win);
  MPI_Win_unlock(0, win);
  MPI_Win_free(&win);
  double s = 0;
  for (int i = 0; i < n; i++) s += ghost[i] * ghost[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, g[4] = {0}, dg[4] = {0};
  __enzyme_autodiff((void *)push, enzyme_dup, x, dx, enzyme_dup, g, dg, enzyme_const, 4);
  return (int)dx[0];
}
