// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// `std::optional<double>` as a robust-statistics user writes it: a helper returns
// `std::nullopt` for rejected samples (outliers, non-positive values before a log),
// `value_or`, `has_value`, `*opt`, `emplace`, `reset` and an optional running maximum;
// the optional values are active. Oracle: the analytic gradient of the kept terms and
// central differences.
#include "fz_cxx.h"
#include <cmath>
#include <optional>

static std::optional<double> safe_log(double v) {
  if (v <= 0) return std::nullopt;
  return std::log(v);
}

static std::optional<double> clipped(double v, double lim) {
  if (std::fabs(v) > lim) return {};
  return v * v;
}

double robust(const double *x, int n) {
  double s = 0;
  std::optional<double> best;
  for (int i = 0; i < n; i++) {
    s += safe_log(x[i]).value_or(0.0);
    auto c = clipped(x[i], 2.0);
    if (c.has_value()) s += 0.5 * *c;
    if (!best || x[i] > *best) best.emplace(x[i]);
  }
  std::optional<double> extra = best;
  if (extra && *extra > 5.0) extra.reset();
  return s + 3.0 * best.value() + (extra ? 0.1 * *extra * *extra : 0.0);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double x[n] = {0.5, -1.0, 2.5, 1.5, -3.0, 0.2, 1.9}, dx[n] = {0}, fd[n], want[n];
  __enzyme_autodiff<void>((void *)robust, enzyme_dup, x, dx, enzyme_const, n);
  int imax = 0;
  for (int i = 1; i < n; i++) if (x[i] > x[imax]) imax = i;
  for (int i = 0; i < n; i++) {
    want[i] = (x[i] > 0 ? 1 / x[i] : 0.0) + (std::fabs(x[i]) <= 2.0 ? x[i] : 0.0);
    if (i == imax) want[i] += 3.0 + 0.2 * x[i];
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return robust(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  return fz_finish();
}
