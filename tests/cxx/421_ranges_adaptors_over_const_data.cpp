// OPT: O0 O2
// CFLAGS: -std=c++20
// Range adaptors over `enzyme_const` data as C++20 users write loops: a `std::span` of
// constant weights under `views::reverse` and `views::filter`, `std::ranges::for_each`
// over a span built in the call (CTAD), `views::iota | views::transform` with a lambda
// reading the constant weights, `std::inner_product` and `std::accumulate` over the
// span's (reverse) iterators, and `*tab | views::values` plus structured bindings over a
// constant `std::vector<std::pair<int, double>>` of coefficients. Oracle: central
// differences, forward/reverse dot products, and the constant inputs unchanged.
// A regression test: at -O0 the reverse sweep crashed (SIGSEGV, also with the base
// binary) on `*tab | views::values`: the `elements_view` comes back as one pointer (to
// the constant vector, whose doubles are behind its pointers), stored into the shadowed
// view with a null shadow.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

using Table = std::vector<std::pair<int, double>>;

double model(const double *x, const double *w, const Table *tab, int n) {
  double s = 0;
  std::span<const double> sw(w, n);
  int i = 0;
  for (double wi : sw | std::views::reverse) s += wi * x[i++] * x[0];
  for (double wi : sw | std::views::filter([](double v) { return v > 0; })) s += wi * x[1] * x[1];
  std::ranges::for_each(std::span(w, n), [&](double wi) { s += wi * std::sin(x[2]); });
  auto tr = std::views::iota(0, n) | std::views::transform([&](int k) { return w[k] * x[k]; });
  for (double t : tr) s += t * t;
  s += std::inner_product(sw.begin(), sw.end(), x, 0.0);
  s += std::accumulate(sw.rbegin(), sw.rend(), 0.0,
                       [&](double a, double b) { return a + b * x[3]; });
  for (double v : *tab | std::views::values) s += v * x[4];
  for (auto [k, v] : *tab) s += v * x[k];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.5, 0.8, 0.15, -0.9}, dx[n] = {0}, fd[n];
  double w[n] = {0.7, -0.2, 0.5, 0.9, -0.4}, w0[n];
  Table tab{{1, 0.5}, {3, -0.25}}, tab0 = tab;
  for (int i = 0; i < n; i++) w0[i] = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, w, enzyme_const,
                          &tab, enzyme_const, n);
  fz_check_arr("enzyme_const w unchanged", w, w0, n, 0);
  fz_check("enzyme_const table unchanged", tab == tab0 ? 1 : 0, 1, 0);
  fz_fd_grad_of([&] { return model(x, w, &tab, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6}, dv = 0;
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_const, &tab, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  fz_check_arr("enzyme_const w unchanged (forward)", w, w0, n, 0);
  return fz_finish();
}
