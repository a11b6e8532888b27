// OPT: O0 O1 O2 O3
// Minimal: three direct __enzyme_autodiff calls with identical argument
// lists, selected by `if (w == k)` in a loop; the optimizer merges them into
// one call through a function-pointer lookup table ("first argument is not a
// function").
#include "fz_test.h"

double f0(double *x, int n) { return x[0] * x[0]; }
double f1(double *x, int n) { return sin(x[0]); }
double f2(double *x, int n) { return exp(x[0]); }

int main(void) {
  double x = 0.3, want[3] = {2 * 0.3, cos(0.3), exp(0.3)};
  for (int w = 0; w < 3; w++) {
    double dx = 0;
    if (w == 0) __enzyme_autodiff((void *)f0, enzyme_dup, &x, &dx, enzyme_const, 1);
    if (w == 1) __enzyme_autodiff((void *)f1, enzyme_dup, &x, &dx, enzyme_const, 1);
    if (w == 2) __enzyme_autodiff((void *)f2, enzyme_dup, &x, &dx, enzyme_const, 1);
    fz_check("d", dx, want[w], 1e-12);
  }
  return fz_finish();
}
