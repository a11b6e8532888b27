// OPT: O0 O1 O2 O3
// Minimal: a fixed-size char array on the stack used as storage for doubles
// (alloca [64 x i8]); active values stored there lose their derivative.
// f = sum x_k^2 through the buffer -> df = 2x. Ferrozyme gives 0.
#include "fz_test.h"

double g(const double *x, int n) {
  _Alignas(8) char buf[64];
  double *t = (double *)buf;
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
