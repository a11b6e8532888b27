// OPT: O0 O2
// CFLAGS: -std=c++17
// A function pointer returned by a (non-inlined) factory chosen by data, then called.
// Oracle: analytic.
#include "fz_cxx.h"
#include <cmath>

typedef double (*unary)(double);
double sq(double x) { return x * x; }
double ex(double x) { return std::exp(x); }
__attribute__((noinline)) unary choose(int which) { return which ? ex : sq; }

double model(double x, int which) { return choose(which)(x) + choose(1 - which)(2 * x); }

int main() {
  double x = 0.6;
  double d0 = __enzyme_autodiff<double>((void *)model, x, enzyme_const, 0);
  double d1 = __enzyme_autodiff<double>((void *)model, x, enzyme_const, 1);
  fz_check("which=0", d0, 2 * x + 2 * std::exp(2 * x), 1e-12);
  fz_check("which=1", d1, std::exp(x) + 2 * 2 * (2 * x), 1e-12);
  return fz_finish();
}
