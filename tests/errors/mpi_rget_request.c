// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Rget` (MPI)
// EXPECT-ERROR: request-based one-sided operations are not differentiated
// EXPECT-ERROR-LINE: MPI_Rget(x
// A request-based one-sided operation (MPI_Rget completed by MPI_Wait) in a
// passive-target epoch is an error naming it and the remedy (MPI_Get completed by the
// unlock or a flush, differentiated: tests/mpi/40), not a silent copy. (Open MPI's C ABI
// is declared here, so the test needs no MPI installation: the pass stops before
// linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_lock_all(int, void *);
int MPI_Win_unlock_all(void *);
int MPI_Rget(void *, int, void *, int, long, int, void *, void *, void **);
int MPI_Wait(void **, void *);
int MPI_Win_free(void **);

double fetch(double *x, double *w, int n) {
  void *win, *req;
  MPI_Win_create(w, n * sizeof(double), sizeof(double), &ompi_mpi_info_null,
                 &ompi_mpi_comm_world, &win);
  MPI_Win_lock_all(0, win);
  MPI_Rget(x, n, &ompi_mpi_double, 0, 0, n, &ompi_mpi_double, win, &req);
  MPI_Wait(&req, 0);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  return x[0] * x[n - 1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, w[4] = {0}, dw[4] = {0};
  __enzyme_autodiff((void *)fetch, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, 4);
  return (int)dx[0];
}
