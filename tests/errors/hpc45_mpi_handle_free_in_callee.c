// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `MPI_Comm_free` frees an MPI handle that `release` was handed
// EXPECT-ERROR: runs before the caller's adjoint communication
// EXPECT-ERROR: free the communicator or datatype outside the differentiated function
// EXPECT-ERROR-LINE: MPI_Comm_free(&c->comm)
// A context struct holding a communicator duplicated in the differentiated function and
// freed by a helper that is not inlined (a C++ destructor at -O0 does the same:
// tests/mpi/103). The helper is differentiated in split mode, whose reverse function
// freed the handle at its exit (right for a handle it makes itself: tests/mpi/77), before
// the caller's adjoint MPI_Allreduce, which then used the freed communicator (Open MPI
// stopped the program, or the adjoint crashed). Refused with the remedy; a free in the
// differentiated function itself is moved after the reverse sweep and works. Open MPI's
// C ABI is declared here, so the test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_op_sum, ompi_mpi_comm_world;
int MPI_Comm_dup(void *, void **);
int MPI_Comm_free(void **);
int MPI_Allreduce(const void *, void *, int, void *, void *, void *);

struct ctx {
  void *comm;
  int n;
};

__attribute__((noinline)) static void release(struct ctx *c) { MPI_Comm_free(&c->comm); }

double loss(const double *x, int n) {
  struct ctx c;
  c.n = n;
  MPI_Comm_dup(&ompi_mpi_comm_world, &c.comm);
  double s = 0, t = 0;
  for (int i = 0; i < c.n; i++) s += x[i] * x[i];
  MPI_Allreduce(&s, &t, 1, &ompi_mpi_double, &ompi_mpi_op_sum, c.comm);
  release(&c);
  return t;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
