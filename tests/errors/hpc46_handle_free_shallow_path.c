// OPT: O0
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `teardown` frees an MPI handle it was handed (`mpi_comm_free_` in `release`)
// EXPECT-ERROR: has no derivative, so it runs in the forward sweep
// EXPECT-ERROR-LINE: teardown();
// A call without a derivative (it touches no differentiable data) whose callee frees,
// through other functions, a communicator the caller's adjoint MPI_Allreduce still uses:
// copied into the forward sweep as it is, it would free the handle before the reverse
// sweep (Open MPI stops the program). The search for such frees follows calls 4 deep.
// Here `release` is 2 calls from `teardown` through `mid`, but the search met `mid` first
// 4 calls deep along `hop1 -> hop2 -> hop3 -> mid`, where it stopped; until hpc46 it then
// skipped `mid` on the short path as already seen, missed the free and let the program
// crash. The handle is kept as a Fortran integer (a pointer global would make every
// function touching it part of the derivative). Open MPI's C ABI is declared here, so the
// test needs no MPI installation.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern char ompi_mpi_double, ompi_mpi_op_sum, ompi_mpi_comm_world;
int MPI_Comm_dup(void *, void **);
int MPI_Comm_c2f(void *);
void *MPI_Comm_f2c(int);
void mpi_comm_free_(int *, int *);
int MPI_Allreduce(const void *, void *, int, void *, void *, void *);

static int comm, calls;

void release(void) {
  int ierr;
  mpi_comm_free_(&comm, &ierr);
}
void mid(int deep) {
  calls++;
  if (!deep) release();
}
void hop3(void) { mid(1); }
void hop2(void) { hop3(); }
void hop1(void) { hop2(); }
void teardown(void) {
  hop1();
  mid(0);
}

double loss(const double *x, int n) {
  void *c;
  MPI_Comm_dup(&ompi_mpi_comm_world, &c);
  comm = MPI_Comm_c2f(c);
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  MPI_Allreduce(&s, &t, 1, &ompi_mpi_double, &ompi_mpi_op_sum, MPI_Comm_f2c(comm));
  teardown();
  return t;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
