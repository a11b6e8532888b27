// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Structured bindings and tuples inside the differentiated function: helpers returning
// `std::tuple<double, double, int>` and `std::pair`, unpacked with `auto [a, b, k] = ...`,
// `std::tie` assigning into existing locals, a binding to an aggregate struct by
// reference (writes through the binding), `const auto &[key, value]` over a
// `std::map<int, double>` built from the inputs, and `std::apply` of a lambda to a
// tuple of active values. Oracle: central finite differences of the same function.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

extern int enzyme_dup, enzyme_const, enzyme_out;

static std::tuple<double, double, int> polar(double x, double y) {
  double r = std::hypot(x, y);
  double t = std::atan2(y, x);
  return {r, t, r > 1.0 ? 1 : 0};
}

static std::pair<double, double> minmax2(double a, double b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

struct State {
  double pos, vel;
  int steps;
};

double energy(const double *p, int n) {
  double acc = 0;
  for (int i = 0; i + 1 < n; i += 2) {
    auto [r, t, far] = polar(p[i], p[i + 1]);
    acc += far ? r * std::cos(t) * std::cos(t) : r * r * std::sin(t);
  }
  double lo, hi;
  std::tie(lo, hi) = minmax2(p[0] * p[1], std::exp(p[2] - 1.0));
  acc += 2.0 * lo + hi * hi;

  State s{p[0], p[1], 0};
  auto &[x, v, k] = s;
  for (int i = 0; i < 5; i++) {
    v -= 0.1 * x * x * x;
    x += 0.1 * v;
    k++;
  }
  acc += s.pos * s.vel * k;

  std::map<int, double> weights;
  for (int i = 0; i < n; i++) weights[(i * 7) % n] = p[i] * (i + 1);
  for (const auto &[key, value] : weights) acc += std::sin(value) / (key + 1);

  auto tup = std::make_tuple(p[n - 1], p[n - 2], 3.0);
  acc += std::apply([](double a, double b, double c) { return a * b * c - std::sqrt(a * a + c); }, tup);
  return acc;
}

int main() {
  const int n = 6;
  double p[n] = {0.7, -0.4, 1.3, 0.25, -1.1, 0.9};
  double dp[n] = {0};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, p, dp, enzyme_const, n);
  double want[n];
  fz_fd_grad_of([&] { return energy(p, n); }, p, n, want);
  fz_check_arr("energy grad", dp, want, n, 1e-6);

  double q[n] = {-0.3, 0.5, 0.2, 1.6, 0.8, 0.35};
  double dq[n] = {0};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, q, dq, enzyme_const, n);
  fz_fd_grad_of([&] { return energy(q, n); }, q, n, want);
  fz_check_arr("energy grad (other branches)", dq, want, n, 1e-6);
  return fz_finish();
}
