// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// Modern C++ (C++20) over the user's arrays: `std::span<const double>` parameters and
// `subspan`, `std::ranges::sort` and `std::ranges::max` on a copy, range-for over
// `std::views::transform` and `std::views::filter` pipelines, `std::views::iota` with
// `std::views::reverse`, `std::transform_reduce` with lambdas, a `constexpr` helper and a
// concept-constrained template. Oracle: central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <concepts>
#include <numeric>
#include <ranges>
#include <span>
#include <vector>

template <std::floating_point T>
constexpr T smooth_abs(T x) { return std::sqrt(x * x + T(1e-2)); }

double loss_span(std::span<const double> x, std::span<const double> w) {
  auto head = x.subspan(0, 4);
  double s = std::transform_reduce(head.begin(), head.end(), w.begin(), 0.0, std::plus<>(),
                                   [](double a, double b) { return a * b * a; });
  for (double v : x | std::views::transform([](double a) { return smooth_abs(a); }) |
                      std::views::filter([](double a) { return a > 0.3; }))
    s += v;
  std::vector<double> c(x.begin(), x.end());
  std::ranges::sort(c);
  for (int i : std::views::iota(0, (int)c.size()) | std::views::reverse) s += c[i] * 0.1 * i;
  s += std::ranges::max(c) * 2.0;
  return s;
}

double loss(const double *x, const double *w, int n) { return loss_span({x, (size_t)n}, {w, 4}); }

int main() {
  const int n = 8;
  double x[n], w[4] = {0.5, -0.25, 1.0, 2.0}, dx[n] = {0}, dw[4] = {0}, fx[n], fw[4];
  fz_seed(118);
  fz_fill(x, n, -2, 2);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, n);
  auto f = [&] { return loss(x, w, n); };
  fz_fd_grad_of(f, x, n, fx);
  fz_fd_grad_of(f, w, 4, fw);
  fz_check_arr("dx fd", dx, fx, n, 1e-6);
  fz_check_arr("dw fd", dw, fw, 4, 1e-6);
  return fz_finish();
}
