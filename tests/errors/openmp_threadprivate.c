// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: thread-local data
// EXPECT-ERROR: threadprivate
// EXPECT-ERROR: compile with -fnoopenmp-use-tls
// A per-thread accumulator declared `#pragma omp threadprivate`, as older OpenMP codes
// keep one, compiled with clang's default lowering to the platform's thread-local
// storage: thread-local globals have no shadow per thread, so the derivative is refused
// with a message naming thread-local data and the flag under which the same program is
// differentiated (-fnoopenmp-use-tls: libomp's copies, tests/openmp/33). It used to ask
// to report the intrinsic `llvm.threadlocal.address.p0`.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

static double acc;
#pragma omp threadprivate(acc)

double total(const double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    acc = 0;
#pragma omp for
    for (int i = 0; i < n; i++) acc += x[i] * x[i];
    s += acc;
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
