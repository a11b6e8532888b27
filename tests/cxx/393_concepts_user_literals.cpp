// OPT: O0 O2
// CFLAGS: -std=c++20
// C++20 as users write it now: functions constrained by concepts (`std::floating_point`,
// a user concept `Field` requiring `value(p)` and `grad_hint`), an abbreviated function
// template (`auto` parameters), `requires` clauses choosing between two overloads, and
// user-defined literals (`45.0_deg`, `2.0_km`) folding units into constants that scale the
// parameters. Oracle: the analytic gradient, central differences, and forward/reverse
// dot products.
#include "fz_cxx.h"
#include <cmath>
#include <concepts>
#include <numbers>

constexpr double operator""_deg(long double d) {
  return double(d) * std::numbers::pi / 180.0;
}
constexpr double operator""_km(long double d) { return double(d) * 1000.0; }

template <typename F>
concept Field = requires(const F &f, const double *p) {
  { f.value(p) } -> std::convertible_to<double>;
  F::grad_hint;
};

struct Ramp {
  static constexpr bool grad_hint = true;
  double slope;
  double value(const double *p) const { return slope * p[0] / 1.0_km; }
};

struct Wave {
  static constexpr bool grad_hint = false;
  double phase;
  double value(const double *p) const { return std::sin(p[1] + phase); }
};

template <std::floating_point T>
T squared(T v) { return v * v; }

// abbreviated template, constrained
double sample(const Field auto &f, const double *p) { return f.value(p); }

// two overloads chosen by a requires clause
template <typename F>
  requires Field<F> && F::grad_hint
double weight(const F &, const double *p) { return 1 + squared(p[2]); }
template <typename F>
  requires Field<F> && (!F::grad_hint)
double weight(const F &, const double *p) { return std::cos(p[2]); }

double energy(const double *p) {
  Ramp r{2.5};
  Wave w{30.0_deg};
  return weight(r, p) * sample(r, p) + weight(w, p) * sample(w, p);
}

extern int enzyme_dup;

int main() {
  double p[3] = {1500.0, 0.4, 0.6}, dp[3] = {0}, fd[3];
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return energy(p); }, p, 3, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 3, 1e-6);
  const double ph = std::numbers::pi / 6;
  double want[3] = {(1 + p[2] * p[2]) * 2.5 / 1000.0, std::cos(p[2]) * std::cos(p[1] + ph),
                    2 * p[2] * 2.5 * p[0] / 1000.0 - std::sin(p[2]) * std::sin(p[1] + ph)};
  fz_check_arr("d/dp analytic", dp, want, 3, 1e-12);
  double v[3] = {100.0, -0.3, 0.5}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, v);
  for (int i = 0; i < 3; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
