// OPT: O0 O2
// CFLAGS: -std=c++17
// Heterogeneous parameter packs as users keep them: a `std::tuple<double,
// std::array<double, 3>, std::vector<double>>` filled from the active parameter array
// (a scalar gain, a fixed-size bias, a variable-length weight vector), unpacked into a
// model with `std::apply` and a generic lambda, and regularized by a `for_each` over the
// tuple's elements written with `std::index_sequence` and overloaded `norm2` functions;
// one element replaced through `std::get<1>` by reference before the call. Oracle: the
// analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

using Params = std::tuple<double, std::array<double, 3>, std::vector<double>>;

static double norm2(double v) { return v * v; }
template <std::size_t N>
static double norm2(const std::array<double, N> &a) {
  double s = 0;
  for (double v : a) s += v * v;
  return s;
}
static double norm2(const std::vector<double> &a) {
  double s = 0;
  for (double v : a) s += v * v;
  return s;
}

template <typename Tuple, typename F, std::size_t... I>
void for_each_impl(const Tuple &t, F &&f, std::index_sequence<I...>) {
  (f(std::get<I>(t)), ...);
}
template <typename... T, typename F>
void for_each(const std::tuple<T...> &t, F &&f) {
  for_each_impl(t, f, std::index_sequence_for<T...>{});
}

// p: gain, 3 biases, n weights; x: n inputs (constant)
double loss(const double *p, const double *x, int n) {
  Params prm{p[0], {p[1], p[2], p[3]}, std::vector<double>(p + 4, p + 4 + n)};
  std::get<1>(prm)[2] *= 2.0;  // the third bias enters twice as strongly
  double out = std::apply(
      [&](double g, const auto &b, const auto &w) {
        double s = 0;
        for (int i = 0; i < n; i++) s += w[i] * x[i];
        return g * std::tanh(s + b[0]) + b[1] * b[2];
      },
      prm);
  double reg = 0;
  for_each(prm, [&](const auto &e) { reg += 0.1 * norm2(e); });
  return out * out + reg;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5, np = 4 + n;
  double p[np] = {0.8, 0.1, -0.3, 0.25, 0.4, -0.6, 0.2, 0.9, -0.1};
  double x[n] = {0.5, 0.3, -0.2, 0.1, 0.7}, dp[np] = {0}, fd[np], want[np];
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp, enzyme_const, x, enzyme_const, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += p[4 + i] * x[i];
  double th = std::tanh(s + p[1]), out = p[0] * th + p[2] * 2 * p[3];
  double dth = 1 - th * th;
  want[0] = 2 * out * th + 0.2 * p[0];
  want[1] = 2 * out * p[0] * dth + 0.2 * p[1];
  want[2] = 2 * out * 2 * p[3] + 0.2 * p[2];
  want[3] = 2 * out * 2 * p[2] + 0.2 * 4 * p[3];  // the bias doubled before the norm
  for (int i = 0; i < n; i++) want[4 + i] = 2 * out * p[0] * dth * x[i] + 0.2 * p[4 + i];
  fz_check_arr("d/dp analytic", dp, want, np, 1e-12);
  fz_fd_grad_of([&] { return loss(p, x, n); }, p, np, fd);
  fz_check_arr("d/dp finite differences", dp, fd, np, 1e-6);
  double v[np], dv = 0;
  for (int i = 0; i < np; i++) v[i] = std::cos(0.7 * i + 0.3);
  for (int i = 0; i < np; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, p, v, enzyme_const, x,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
