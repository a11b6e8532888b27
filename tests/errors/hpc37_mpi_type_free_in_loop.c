// EXPECT-ERROR: MPI_Type_free
// EXPECT-ERROR: only when it runs at most once per call
// EXPECT-ERROR: move this MPI_Type_free
// EXPECT-ERROR: create and commit the datatype once before the loop
// A strided datatype built, used and freed on every iteration of a loop (of a run-time
// trip count: a loop of two trips unrolled frees twice in straight-line code, which is
// differentiated, tests/mpi/80) in the differentiated function. The error's help names the call and what to do with it
// (hpc37: it was one generic line for communicators and datatypes alike): commit the
// datatype once before the loop and free it after, or after the differentiated call.
// (Open MPI's C ABI is declared here, so the test needs no MPI installation: the pass
// stops before linking.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_comm_world;
int MPI_Type_vector(int, int, int, void *, void **);
int MPI_Type_commit(void **);
int MPI_Type_free(void **);
int MPI_Bcast(void *, int, void *, int, void *);

double cols(double *x, int n, int strides) {
  double s = 0;
  for (int k = 1; k <= strides; k++) {
    void *col;
    MPI_Type_vector(n / k, 1, k, &ompi_mpi_double, &col);
    MPI_Type_commit(&col);
    MPI_Bcast(x, 1, col, 0, &ompi_mpi_comm_world);
    for (int i = 0; i < n; i += k) s += x[i] * x[i];
    MPI_Type_free(&col);
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)cols, enzyme_dup, x, dx, enzyme_const, 4, enzyme_const, 2);
  return (int)dx[0];
}
