// CFLAGS: -fopenmp
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: cannot deduce the type of the memory copied here
// A taskloop with an explicit `firstprivate(y)` of an array declared outside the
// parallel region: clang memcpys the array into each task's private data, and type
// analysis sees neither the captured array's type through the parallel region nor the
// task's reads of the copy (both `Anything`; the copy's !tbaa.struct is `omnipotent
// char`). Moving a derivative through an untyped copy could be silently wrong, so it is
// an error naming the copy. (A local array inside the region, firstprivate by default,
// and arrays shared explicitly are differentiated.)
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double weighted(const double *x, int n) {
  double s = 0, y[8];
  for (int k = 0; k < 8; k++) y[k] = x[k] * x[k];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop firstprivate(y) reduction(+ : s)
  for (int i = 0; i < n; i++) s += y[i % 8] * x[i];
  return s;
}

int main(void) {
  double x[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, dx[16] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, 16);
  return (int)dx[0];
}
