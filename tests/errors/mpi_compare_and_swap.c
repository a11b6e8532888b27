// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `MPI_Compare_and_swap` (MPI)
// EXPECT-ERROR: not differentiable
// EXPECT-ERROR-LINE: MPI_Compare_and_swap(x
// MPI_Compare_and_swap writes the target only when its value equals the compare buffer:
// a step in the data, which has no derivative. On reals in a differentiated function it
// is an error naming the call and saying why, not a silent copy. (Open MPI's C ABI is
// declared here, so the test needs no MPI installation: the pass stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_lock(int, int, int, void *);
int MPI_Win_unlock(int, void *);
int MPI_Compare_and_swap(const void *, const void *, void *, void *, int, long, void *);
int MPI_Win_free(void **);

double swap_if_zero(double *x, double *slot, int n) {
  void *win;
  double zero = 0, old = 0;
  MPI_Win_create(slot, sizeof(double), sizeof(double), &ompi_mpi_info_null,
                 &ompi_mpi_comm_world, &win);
  MPI_Win_lock(1 /* MPI_LOCK_EXCLUSIVE */, 0, 0, win);
  MPI_Compare_and_swap(x, &zero, &old, &ompi_mpi_double, 0, 0, win);
  MPI_Win_unlock(0, win);
  MPI_Win_free(&win);
  return old * x[n - 1];
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, s = 0, ds = 0;
  __enzyme_autodiff((void *)swap_if_zero, enzyme_dup, x, dx, enzyme_dup, &s, &ds, enzyme_const,
                    4);
  return (int)dx[0];
}
