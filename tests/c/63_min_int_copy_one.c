// OPT: O0 O1 O2 O3
// Minimal: copy one double into another slot through a `long` pointer cast.
// f = a[1] after a[1] = a[0] (bits) -> da = (1, 0).
#include "fz_test.h"

double f(double *a) {
  long *la = (long *)a;
  la[1] = la[0];
  return a[1] * 2.0;
}

int main(void) {
  double a[2] = {0.5, 2.0}, da[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  fz_check("da0", da[0], 2.0, 1e-12);
  fz_check("da1", da[1], 0.0, 1e-12);
  return fz_finish();
}
