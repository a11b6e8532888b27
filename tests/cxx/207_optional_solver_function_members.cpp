// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A root finder returning `std::optional<double>` (empty when it fails to bracket) and a
// model object holding `std::function<double(double)>` members called in a loop (a
// source term and a damping law chosen at construction), as application code is
// organised (sweep23). The loss sums, over active parameters, the roots of
// f(x) = x^3 + p x - q found by safeguarded Newton (`value_or` a fallback when empty),
// and a damped sum through the `std::function` members. Oracles: the implicit function
// theorem for each root (dx/dp = -x / (3x^2 + p), dx/dq = 1 / (3x^2 + p)), the analytic
// derivative of the damped sum, central finite differences.
#include "fz_cxx.h"
#include <functional>
#include <optional>

static std::optional<double> cubic_root(double p, double q) {
  double lo = -10, hi = 10;
  auto f = [&](double x) { return x * x * x + p * x - q; };
  if (f(lo) * f(hi) > 0) return std::nullopt;
  double x = 0.5 * (lo + hi);
  for (int it = 0; it < 60; it++) {
    double fx = f(x), d = 3 * x * x + p;
    double nx = x - fx / d;
    if (nx <= lo || nx >= hi) nx = 0.5 * (lo + hi); // bisection safeguard
    if (f(nx) < 0) lo = nx; else hi = nx;
    if (std::fabs(nx - x) < 1e-15) { x = nx; break; }
    x = nx;
  }
  return x;
}

struct Model {
  std::function<double(double)> source;
  std::function<double(double, double)> damping;
  double run(const double *w, int n) const {
    double s = 0;
    for (int i = 0; i < n; i++) s += damping(source(w[i]), 0.1 * (i + 1));
    return s;
  }
};

double loss(const double *p, const double *w, int n) {
  double s = 0;
  for (int k = 0; k < 2; k++) {
    std::optional<double> r = cubic_root(p[2 * k], p[2 * k + 1]);
    s += r.value_or(0.0) * (1.0 + k);
  }
  Model m{[&](double x) { return std::sin(p[0] * x); },
          [](double v, double t) { return v * std::exp(-t * v * v); }};
  return s + m.run(w, n);
}

int main() {
  constexpr int N = 5;
  double p[4] = {1.2, 0.7, 2.5, -1.3}, w[N], dp[4] = {0}, dw[N] = {0};
  fz_seed(207);
  fz_fill(w, N, -1, 1);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp, enzyme_dup, w, dw, enzyme_const, N);
  double want_p[4] = {0}, want_w[N];
  for (int k = 0; k < 2; k++) {
    double x = *cubic_root(p[2 * k], p[2 * k + 1]), d = 3 * x * x + p[2 * k];
    want_p[2 * k] += (1.0 + k) * -x / d;
    want_p[2 * k + 1] += (1.0 + k) / d;
  }
  for (int i = 0; i < N; i++) {
    double t = 0.1 * (i + 1), v = std::sin(p[0] * w[i]);
    double dd = std::exp(-t * v * v) * (1 - 2 * t * v * v); // d damping / dv
    double c = std::cos(p[0] * w[i]);
    want_w[i] = dd * c * p[0];
    want_p[0] += dd * c * w[i];
  }
  fz_check_arr("d/dp: implicit function theorem + analytic", dp, want_p, 4, 1e-9);
  fz_check_arr("d/dw analytic", dw, want_w, N, 1e-10);
  auto f = [&] { return loss(p, w, N); };
  double fp[4], fw[N];
  fz_fd_grad_of(f, p, 4, fp);
  fz_fd_grad_of(f, w, N, fw);
  fz_check_arr("d/dp FD", dp, fp, 4, 1e-6);
  fz_check_arr("d/dw FD", dw, fw, N, 1e-6);
  return fz_finish();
}
