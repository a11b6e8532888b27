// OPT: O0 O1 O2 O3
// Minimal: __builtin_alloca with a runtime size (a dynamic `alloca` that is
// not a VLA, so no stacksave/stackrestore), written with active data and
// read back. f = sum_k (x_k)^2 stored via the alloca buffer -> df = 2 x.
#include "fz_test.h"

double g(const double *x, int n) {
  double *t = (double *)__builtin_alloca(sizeof(double) * (size_t)n);
  for (int k = 0; k < n; k++) t[k] = x[k];
  double acc = 0.0;
  for (int k = 0; k < n; k++) acc += t[k] * t[k];
  return acc;
}

int main(void) {
  volatile int nv = 3;
  double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0, 0, 0}, want[3] = {1.0, -2.0, 4.0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, (int)nv);
  fz_check_arr("dx", dx, want, 3, 1e-12);
  return fz_finish();
}
