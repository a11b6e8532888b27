// OPT: O0 O1 O2
// CFLAGS: -std=c++20
// C++20 as a numerics user writes it: `std::span<double>` and `std::span<const double, 3>`
// parameters (fixed and dynamic extents, `first`, `last`, `subspan`), and a
// `std::views::transform | std::views::filter | std::views::take` pipeline over the span
// whose filter predicate reads active values, reduced with a range-for; also
// `std::ranges::for_each` writing through the span. Oracle: central differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <ranges>
#include <span>

static double weighted(std::span<const double, 3> w, std::span<const double> v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); i++) s += w[i % 3] * v[i];
  return s;
}

double pipeline(double *buf, const double *wp, int n) {
  std::span<double> all(buf, n);
  std::ranges::for_each(all.last(3), [](double &v) { v = v * v; });
  std::span<const double, 3> w(wp, 3);
  double s = weighted(w, all.first(4)) + weighted(w, all.subspan(2, 5));
  auto view = all | std::views::transform([](double v) { return std::sin(v) + v; }) |
              std::views::filter([](double v) { return v > 0.2; }) | std::views::take(4);
  for (double v : view) s += v * v;
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 9;
  double x[n] = {0.4, -0.3, 1.1, 0.05, 0.8, -1.2, 0.6, 0.9, -0.5}, dx[n] = {0};
  double w[3] = {0.5, -1.5, 2.0}, dw[3] = {0}, fd[n], tmp[n];
  double x0[n];
  for (int i = 0; i < n; i++) x0[i] = x[i];
  __enzyme_autodiff<void>((void *)pipeline, enzyme_dup, x, dx, enzyme_dup, w, dw,
                          enzyme_const, n);
  for (int i = 0; i < n; i++) x[i] = x0[i];  // the primal squared the last three in place
  auto f = [&] {
    for (int i = 0; i < n; i++) tmp[i] = x[i];
    return pipeline(tmp, w, n);
  };
  fz_fd_grad_of(f, x, n, fd);
  fz_check_arr("d/dbuf finite differences", dx, fd, n, 1e-6);
  fz_fd_grad_of(f, w, 3, fd);
  fz_check_arr("d/dw finite differences", dw, fd, 3, 1e-6);
  return fz_finish();
}
