// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: pool_alloc
// EXPECT-ERROR-LINE: STORE-MARKER
// Memory from an allocator Ferrozyme has no IR or rule for cannot get a shadow; storing a
// differentiable value there would silently lose its derivative. A clear error instead.
#include "../c/fz_test.h"

extern double *pool_alloc(size_t n);

double f(const double *x, int n) {
  double *t = pool_alloc((size_t)n);
  for (int i = 0; i < n; i++) t[i] = exp(x[i]); // STORE-MARKER
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i];
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  printf("%g\n", dx[0]);
  return 0;
}
