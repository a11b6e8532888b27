// OPT: O0 O2
// CFLAGS: -std=c++20
// Non-owning views of `enzyme_const` data built inside the differentiated function, the
// ways C++20 offers them (cxx/412's `std::span` bug, at -O0, wrote adjoints into the
// constant data): `std::span<const double, 4>` of fixed extent, `std::views::counted`,
// `std::ranges::subrange` of two `const double *`, `std::views::drop`/`take` over it,
// `std::span::subspan`, `std::ranges::transform_view` of the constant data, a
// `std::reference_wrapper<const double>` array, and a struct of spans passed by value to
// a helper. Oracle: the analytic gradient, central differences, forward/reverse dot
// products, and every constant input unchanged after each differentiated call.
// A regression test: at -O0 the reverse sweep crashed (SIGSEGV, also with the base
// binary) on `std::views::counted(w, n)`: it returns the span `{const double *, size_t}`
// by value, stored into the range-for's shadowed temporary with a null shadow pointer.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <functional>
#include <ranges>
#include <span>

struct Views {
  std::span<const double> w;
  std::span<const double, 4> c;
};

static double dot_with(Views v, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v.w[i] * x[i];
  for (int i = 0; i < 4; i++) s += v.c[i] * x[i] * x[i];
  return s;
}

double model(const double *x, const double *w, const double *c, int n) {
  Views v{std::span<const double>(w, n), std::span<const double, 4>(c, 4)};
  double s = dot_with(v, x, n);
  auto counted = std::views::counted(w, n);
  auto sub = std::ranges::subrange(c, c + 4);
  int i = 0;
  for (double wi : counted | std::views::drop(1) | std::views::take(n - 2))
    s += wi * std::sin(x[++i]);
  i = 0;
  for (double ci : sub) s += ci * std::exp(0.1 * x[i++]);
  auto tail = v.w.subspan(n - 2);
  s += tail[0] * tail[1] * x[0];
  auto scaled = std::views::transform(v.c, [](double ci) { return 2 * ci; });
  for (int k = 0; k < 4; k++) s += scaled[k] * x[k + 1];
  std::array<std::reference_wrapper<const double>, 2> refs{std::cref(w[0]), std::cref(c[3])};
  s += refs[0].get() * refs[1].get() * x[n - 1] * x[n - 1];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.5, 0.8, 0.15, -0.9, 0.4}, dx[n] = {0}, fd[n], want[n];
  double w[n] = {0.7, -0.2, 0.5, 0.9, -0.4, 0.3}, c[4] = {0.25, -0.6, 0.45, 0.8};
  double w0[n], c0[4];
  for (int i = 0; i < n; i++) w0[i] = w[i];
  for (int i = 0; i < 4; i++) c0[i] = c[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, c,
                          enzyme_const, n);
  fz_check_arr("enzyme_const w unchanged (reverse)", w, w0, n, 0);
  fz_check_arr("enzyme_const c unchanged (reverse)", c, c0, 4, 0);
  for (int i = 0; i < n; i++) want[i] = w[i];
  for (int i = 0; i < 4; i++) want[i] += 2 * c[i] * x[i] + 0.1 * c[i] * std::exp(0.1 * x[i]);
  for (int i = 1; i <= n - 2; i++) want[i] += w[i] * std::cos(x[i]);
  want[0] += w[n - 2] * w[n - 1];
  for (int k = 0; k < 4; k++) want[k + 1] += 2 * c[k];
  want[n - 1] += 2 * w[0] * c[3] * x[n - 1];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, w, c, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6, 0.1}, dv = 0;
  for (int i = 0; i < n; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_const, c, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check_arr("enzyme_const w unchanged (forward)", w, w0, n, 0);
  fz_check_arr("enzyme_const c unchanged (forward)", c, c0, 4, 0);
  return fz_finish();
}
