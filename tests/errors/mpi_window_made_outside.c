// EXPECT-ERROR: MPI window of a differentiated one-sided operation
// EXPECT-ERROR: create the window (MPI_Win_create or MPI_Win_allocate) and free it inside
// A window created in main over an array that main passes with its shadow, handed to
// the differentiated function as a constant argument, which fences it and puts into the
// neighbour's ghost cell. The derivative runs one-sided operations on windows it
// creates (they carry the window memory's derivative and the operations' records), so
// this is an error naming the remedy, not a derivative that ignores the window memory.
// (Open MPI's C ABI is declared here, so the test needs no MPI installation: the pass
// stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world, ompi_mpi_info_null;
int MPI_Win_create(void *, long, int, void *, void *, void **);
int MPI_Win_fence(int, void *);
int MPI_Put(const void *, int, void *, int, long, int, void *, void *);

double push(double *x, double *u, void *win, int n) {
  MPI_Win_fence(0, win);
  MPI_Put(&x[n - 1], 1, &ompi_mpi_double, 1, 0, 1, &ompi_mpi_double, win);
  MPI_Win_fence(0, win);
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, u[4] = {0}, du[4] = {0};
  void *win;
  MPI_Win_create(u, sizeof u, sizeof(double), &ompi_mpi_info_null, &ompi_mpi_comm_world, &win);
  __enzyme_autodiff((void *)push, enzyme_dup, x, dx, enzyme_dup, u, du, enzyme_const, win,
                    enzyme_const, 4);
  return (int)dx[0];
}
