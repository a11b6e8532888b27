// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: by value (firstprivate
// An active scalar captured by value (firstprivate) reaches the region as an integer
// copy of its bits; its derivative would be lost, so it is rejected.
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);

void scale(double *x, double a, int n) {
#pragma omp parallel for firstprivate(a)
  for (int i = 0; i < n; i++) x[i] = x[i] * a;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 1, 1, 1};
  __enzyme_autodiff((void *)scale, enzyme_dup, x, dx, enzyme_out, 2.0, enzyme_const, 4);
  return (int)dx[0];
}
