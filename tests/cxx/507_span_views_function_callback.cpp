// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// probe43: C++20 as people write it: a loss over `std::span<const double>` with
// `views::transform` (a lambda), `views::drop | views::take`, `views::iota |
// views::filter`; a `std::function<double(double)>` callback in a global (declared
// inactive: without that, a clear compile-time refusal, "the global `act` is built at
// startup by a constructor and holds pointers") reassigned between calls to a plain
// lambda and to one capturing a double by value, applied to a local `std::vector` built
// from the input, then `std::accumulate` and `std::ranges::max`. Reverse against central
// differences, forward against <gradient, v>. Passed as written (passing the
// std::function by value to `std::ranges::transform` is refused: cannot-deduce-type at
// the copy of its 16-byte small-object buffer).
#include "fz_cxx.h"
#include <span>
#include <ranges>
#include <functional>
#include <numeric>
#include <algorithm>
#include <vector>
extern double __enzyme_fwddiff(void *, ...);
static double loss_span(std::span<const double> x) {
  auto sq = x | std::views::transform([](double v) { return v * v; });
  double s = 0;
  for (double v : sq) s += v;
  auto tail = x | std::views::drop(1) | std::views::take(3);
  for (double v : tail) s += std::sin(v);
  auto ev = std::views::iota(0, (int)x.size()) | std::views::filter([](int i) { return i % 2 == 0; });
  for (int i : ev) s += x[i] * x[(i + 1) % x.size()];
  return s;
}
double f_span(const double *x, int n) { return loss_span(std::span<const double>(x, n)); }
static std::function<double(double)> act;
void *__enzyme_inactive_global[] = {(void *)&act};
double f_fun(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (auto &e : v) e = act(e);
  return std::accumulate(v.begin(), v.end(), 0.0) + std::ranges::max(v);
}
template <double (*f)(const double *, int)> static void check(const char *name, double *x, int n) {
  double dx[8] = {0}, g[8];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return f(x, n); }, x, n, g);
  for (int i = 0; i < n; i++) fz_check(name, dx[i], g[i], 1e-6);
  double v[8], dot = 0; for (int i = 0; i < n; i++) { v[i] = 0.3 + 0.1 * i; dot += v[i] * dx[i]; }
  fz_check(name, __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n), dot, 1e-10);
}
int main() {
  double x[6] = {0.3, -0.8, 1.2, 0.5, -1.4, 0.9};
  check<f_span>("span/views", x, 6);
  act = [](double v) { return std::tanh(2 * v); };
  check<f_fun>("function tanh", x, 6);
  double c = 0.7;
  act = [c](double v) { return v > 0 ? c * v * v : std::exp(v) - 1; };
  check<f_fun>("function capture", x, 6);
  return fz_finish();
}
