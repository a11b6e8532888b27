// EXPECT-ERROR: bad-autodiff-call
// EXPECT-ERROR: is `norm2`, an ifunc
// EXPECT-ERROR: differentiate a function that calls it
// probe46: a `target_clones` function (an ifunc: the loader picks one version) given to
// __enzyme_autodiff directly. Calls of it inside a differentiated function work
// (tests/c/1524); the ifunc itself has no one body to differentiate.
#include "../c/fz_test.h"
__attribute__((target_clones("avx2", "default"))) double norm2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
int main(void) {
  double x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)norm2, enzyme_dup, x, dx, enzyme_const, 2);
  return 0;
}
