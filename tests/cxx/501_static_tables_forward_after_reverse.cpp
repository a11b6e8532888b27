// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// cxx43, static45: cxx/500's tables with a forward derivative after every reverse one.
// The reverse sweeps accumulate adjoints in the shadows the first derivative made for the
// tables (the rows of the `vector<vector>`, the buffer `resize` allocates through `this`;
// every table at -O0, built through its constructor's `this`); the forward derivative
// after the second reverse one read them as tangents (197.4 instead of 1.596 at -O1).
// Now every top-level derivative zeroes the floats of the shadows derivatives left where
// a global reaches them (`runtime/ir/kept.ll`). A table built by a plain call before any
// derivative: cxx/502. Oracles: analytic gradient, central differences, forward =
// reverse.
#include <cmath>
#include <vector>
#include "cxx43_static_tables.h"
#include "fz_cxx.h"

// A plain array of constants (cxx/502 builds it as a static vector before any derivative).
static const double e[12] = {2.0, 1.9, 1.8, 1.7, 1.6, 1.5, 1.4, 1.3, 1.2, 1.1, 1.0, 0.9};

// f = sum_i (w_i x_i + shift_i)^2 * r_{i%3} + e_i x_i^3 / 3
double model(const double *x, int n) {
  const auto &w = weights();
  const auto &r = rows();
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
