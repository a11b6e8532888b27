// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// C++17 vocabulary types on the active path: std::optional<double> returned by a helper
// (engaged or not depending on an inactive test) and std::valarray arithmetic
// (elementwise *, +, apply, sum, max). std::variant is in 99. Oracle: central finite
// differences.
#include "fz_cxx.h"
#include <cmath>
#include <optional>
#include <valarray>

static std::optional<double> safe_log(double v) {
  if (v <= 0.0) return std::nullopt;
  return std::log(v);
}

double model(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    auto l = safe_log(x[i]);
    s += l.value_or(-x[i]);
  }
  std::valarray<double> a(x, n), b(n);
  for (int i = 0; i < n; i++) b[i] = 0.1 * (i + 1);
  std::valarray<double> c = a * a + b * a;
  c = c.apply([](double t) { return std::exp(-t); });
  return s + c.sum() + (a * b).max();
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 1.4, -0.2}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return model(x, n); };
    fz_check("dx", dx[i], fz_fd(f, x[i]), 1e-6);
  }
  return fz_finish();
}
