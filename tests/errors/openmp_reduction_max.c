// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: only reduction(+:x)
// EXPECT-ERROR-LINE: reduction(max
// Only sums are differentiated among OpenMP reductions; a max reduction is a clear
// error naming the region.
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double largest(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++)
    if (x[i] > m) m = x[i];
  return m;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)largest, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
