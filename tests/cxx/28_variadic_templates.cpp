// OPT: O0 O2
// CFLAGS: -std=c++17
// Variadic templates and fold expressions, `if constexpr`, and a generic function
// template over the number of arguments, differentiated with several active scalars.
// Oracle: analytic.
#include "fz_cxx.h"
#include <cmath>

template <typename... T>
double sum_sq(T... xs) {
  return ((xs * xs) + ...);
}
template <typename T, typename... R>
double weighted(double w, T first, R... rest) {
  if constexpr (sizeof...(R) == 0) return w * first;
  else return w * first + weighted(2 * w, rest...);
}

double f(double a, double b, double c) { return sum_sq(a, b, c) + weighted(1.0, a, b, c) + std::sin(a * b * c); }

int main() {
  double a = 0.3, b = -0.7, c = 1.1;
  fz_grad3 g = __enzyme_autodiff3((void *)f, a, b, c);
  double cs = std::cos(a * b * c);
  fz_check("da", g.d0, 2 * a + 1 + cs * b * c, 1e-12);
  fz_check("db", g.d1, 2 * b + 2 + cs * a * c, 1e-12);
  fz_check("dc", g.d2, 2 * c + 4 + cs * a * b, 1e-12);
  return fz_finish();
}
