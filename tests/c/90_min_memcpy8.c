// OPT: O0 O1 O2 O3
// Minimal: memcpy of one double (8 bytes) between array slots. At O1+
// InstCombine turns it into `load i64` / `store i64`, and the adjoint is
// not moved: da = (0, 3) instead of (3, 0).
#include "fz_test.h"

__attribute__((noinline)) double get(const double *a, int i) { return a[i]; }

double f(double *a) {
  memcpy(&a[1], &a[0], 8);
  return get(a, 1) * 3.0;
}

int main(void) {
  double a[2] = {0.5, 2.0}, da[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  fz_check("da0", da[0], 3.0, 1e-12);
  fz_check("da1", da[1], 0.0, 1e-12);
  return fz_finish();
}
