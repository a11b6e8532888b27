// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// VARIANTS: all
// cxx43: constant tables kept in objects that outlive the derivative, first built inside
// it: a function-local `static std::vector<double>` filled by an immediately invoked
// lambda (cxx/497's class), a `static std::vector<std::vector<double>>` of rows and a
// static `std::vector<double>` resized and filled on first use. At -O1..O3 the reverse
// sweep of the vector's zeroing `memset` cleared the shadow pointers the forward sweep
// had stored in the static's shadow, so the next derivative call stopped ("the pointer
// read from global ... has no shadow"). The derivatives run in the order reverse,
// forward, reverse, reverse (a forward derivative after the second reverse one reads
// adjoints left in the tables' shadows: cxx/501, not fixed). Oracles: analytic gradient,
// central differences, forward = reverse.
#include <cmath>
#include <vector>
#include "cxx43_static_tables.h"
#include "fz_cxx.h"

// f = sum_i (w_i x_i + shift_i)^2 * r_{i%3} + x_i^3 / 3
double model(const double *x, int n) {
  const auto &w = weights();
  const auto &r = rows();
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = w[i] * x[i] + shift(i);
    s += t * t * r[i % 3][i] + x[i] * x[i] * x[i] / 3;
  }
  return s;
}
int main() {
  const int n = 8;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25};
  auto L = [&] { return 0.0 + model(x, n); };
  for (int round = 0; round < 3; round++) {
    double dx[n] = {0};
    __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      double w = 1.0 + 0.5 * std::sin(0.3 * i), r = 0.25 * (i % 3 + 1);
      double t = w * x[i] + 0.1 * i;
      fz_check("analytic", dx[i], 2 * t * w * r + x[i] * x[i], 1e-10);
      fz_check("central differences", dx[i], fz_fd(L, x[i]), 1e-6);
    }
    for (int i = 0; i < n && round == 0; i++) {
      double v[n] = {0};
      v[i] = 1;
      fz_check("fwd", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, n), dx[i], 1e-10);
    }
  }
  return fz_finish();
}
