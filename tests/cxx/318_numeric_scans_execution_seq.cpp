// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// C++17 numeric algorithms as users write them, inside the differentiated function:
// `std::transform_reduce` over two ranges with custom reduce/transform lambdas and with
// `std::execution::seq`, the unary form with a capture, `std::reduce` with an initial
// value, `std::inclusive_scan`/`std::exclusive_scan` (cumulative sums whose later entries
// depend on earlier inputs), `std::transform_inclusive_scan`, `std::adjacent_difference`
// with a lambda, and `std::inner_product` with `std::plus`/`std::multiplies` swapped.
// Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <execution>
#include <functional>
#include <numeric>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

double scans(const double *x, const double *y, int n) {
  std::vector<double> a(x, x + n), b(y, y + n);
  double s = std::transform_reduce(a.begin(), a.end(), b.begin(), 0.0, std::plus<>(),
                                   [](double u, double v) { return u * std::exp(0.3 * v); });
  s += std::transform_reduce(std::execution::seq, a.begin(), a.end(), b.begin(), 1.0,
                             [](double u, double v) { return u + v; },
                             [](double u, double v) { return std::sin(u - v); });
  double k = a[0];
  s += std::transform_reduce(b.begin(), b.end(), 0.0, std::plus<>(),
                             [k](double v) { return k * v * v; });
  s += std::reduce(a.begin(), a.end(), 0.5);

  std::vector<double> c(n), e(n), t(n), d(n);
  std::inclusive_scan(a.begin(), a.end(), c.begin());
  std::exclusive_scan(b.begin(), b.end(), e.begin(), 1.0, std::multiplies<>());
  std::transform_inclusive_scan(a.begin(), a.end(), t.begin(), std::plus<>(),
                                [](double u) { return u * u; });
  std::adjacent_difference(b.begin(), b.end(), d.begin(), [](double u, double v) { return u * v; });
  for (int i = 0; i < n; i++) s += std::tanh(c[i]) * e[i] + 0.1 * t[i] * d[i];

  s += std::inner_product(a.begin(), a.end(), b.begin(), 1.0, std::multiplies<>(),
                          std::plus<>()) * 1e-3;
  return s;
}

int main() {
  const int n = 7;
  double x[n], y[n], dx[n] = {0}, dy[n] = {0}, wx[n], wy[n];
  fz_seed(318);
  fz_fill(x, n, -0.8, 0.8);
  fz_fill(y, n, 0.5, 1.2);
  __enzyme_autodiff<void>((void *)scans, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
  fz_fd_grad_of([&] { return scans(x, y, n); }, x, n, wx);
  fz_fd_grad_of([&] { return scans(x, y, n); }, y, n, wy);
  fz_check_arr("d/dx", dx, wx, n, 1e-6);
  fz_check_arr("d/dy", dy, wy, n, 1e-6);
  return fz_finish();
}
