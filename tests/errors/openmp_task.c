// CFLAGS: -fopenmp
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: __kmpc_omp_task_alloc
// EXPECT-ERROR: tasks
// OpenMP tasks hand outlined code and its data to the runtime: not differentiated, and
// rejected even though no argument of the runtime call looks active (the data flows
// through memory the runtime allocates).
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

void squares(const double *x, double *y, int n) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task
    y[i] = x[i] * x[i];
  }
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, y[4], dy[4] = {1, 1, 1, 1};
  __enzyme_autodiff((void *)squares, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4);
  return (int)dx[0];
}
