// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE: SILENTLY WRONG: a forward derivative called after a second reverse one reads the adjoints that the reverse sweeps left in the shadows of function-local static tables (the shadows a derivative allocated for them live on, and nothing zeroes them when the next top-level derivative starts; shadows stored directly into the static's own shadow are zeroed since cxx43, at -O1..O3): `rows()` and `shift()` at every level, `weights()` at -O0 and through --ad-before-opt (the forward check is off by sum adjoint * tangent: 197.4 instead of 1.596 at -O1). At -O0, `early()` (built by a primal call before any derivative) stops at run time ("the pointer read from global `_ZZL5earlyvE1e` has no shadow"; it crashed with SIGSEGV before cxx43). Not fixed (cxx43)
// cxx43: cxx/500's tables with a forward derivative after every reverse one, and a table
// first built by a primal call. Oracles: analytic gradient, central differences,
// forward = reverse.
#include <cmath>
#include <vector>
#include "cxx43_static_tables.h"
#include "fz_cxx.h"

static const std::vector<double> &early() {
  static std::vector<double> e = [] {
    std::vector<double> t(12);
    for (int i = 0; i < 12; i++) t[i] = 2.0 - 0.1 * i;
    return t;
  }();
  return e;
}

// f = sum_i (w_i x_i + shift_i)^2 * r_{i%3} + e_i x_i^3 / 3
double model(const double *x, int n) {
  const auto &w = weights();
  const auto &r = rows();
  const auto &e = early();
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = w[i] * x[i] + shift(i);
    s += t * t * r[i % 3][i] + e[i] * x[i] * x[i] * x[i] / 3;
  }
  return s;
}
int main() {
  const int n = 8;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25};
  (void)early();  // built by the primal, before any derivative
  auto L = [&] { return 0.0 + model(x, n); };
  for (int round = 0; round < 2; round++) {
    double dx[n] = {0};
    __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      double w = 1.0 + 0.5 * std::sin(0.3 * i), r = 0.25 * (i % 3 + 1), e = 2.0 - 0.1 * i;
      double t = w * x[i] + 0.1 * i;
      fz_check("analytic", dx[i], 2 * t * w * r + e * x[i] * x[i], 1e-10);
      fz_check("central differences", dx[i], fz_fd(L, x[i]), 1e-6);
    }
    for (int i = 0; i < n; i++) {
      double v[n] = {0};
      v[i] = 1;
      fz_check("fwd", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, n), dx[i], 1e-10);
    }
  }
  return fz_finish();
}
