// OPT: O0 O2
// CFLAGS: -std=c++17
// A plain function (no captures) wrapped in std::function and called through a reference
// by a noinline function, inside the differentiated function. The manager returns either
// the type_info global or the stored function pointer through one phi (reported as
// mismatched activity before runtime activity existed). Oracle: analytic derivative and
// central finite differences.
#include <functional>

#include "fz_cxx.h"


double sq_sin(double x) { return x * x * sin(x); }
double d_sq_sin(double x) { return 2 * x * sin(x) + x * x * cos(x); }

__attribute__((noinline)) double twice(const std::function<double(double)> &f, double x) {
  return f(x) + f(2 * x);
}

double g(double x) {
  std::function<double(double)> f = sq_sin;
  return twice(f, x);
}

int main() {
  const double xs[] = {0.7, -1.1, 2.3};
  for (double x : xs) {
    double d = __enzyme_autodiff((void *)g, x);
    fz_check("d/dx analytic", d, d_sq_sin(x) + 2 * d_sq_sin(2 * x), 1e-12);
    fz_check("d/dx finite differences", d, fz_fd1(g, x), 1e-6);
  }
  return fz_finish();
}
