// OPT: O0 O2
// CFLAGS: -std=c++20
// A constant `std::map<int, std::vector<double>>` (per-index polynomial coefficients) and a
// `std::multimap<int, double>` inside an `enzyme_const` struct, walked by range-for with
// structured bindings and by `equal_range`, with an active input. Oracle: the analytic
// gradient, central differences, forward/reverse dot product, and the constant struct
// unchanged. A regression test (cxx36): at -O0 the reverse sweep crashed (SIGSEGV, also
// with the base binary); with that fixed, `auto [lo, hi] = equal_range(..)`'s copy of the iterator
// pair was refused ("memory holding pointers is copied from a pointer that is constant
// or differentiable depending on the run").
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <vector>

struct Data {
  std::map<int, std::vector<double>> poly;
  std::multimap<int, double> extra;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  for (const auto &[i, c] : d->poly) {
    double p = 0;
    for (auto it = c.rbegin(); it != c.rend(); ++it) p = p * x[i] + *it;  // Horner
    s += p;
  }
  auto [lo, hi] = d->extra.equal_range(2);
  for (auto it = lo; it != hi; ++it) s += it->second * x[2] * x[3];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{{0, {1.0, 0.5, -0.25}}, {3, {0.0, 2.0, 0.0, 1.5}}},
         {{2, 0.5}, {2, -1.5}, {1, 9.0}}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.poly == d0.poly && d.extra == d0.extra ? 1 : 0, 1, 0);
  want[0] += 0.5 - 0.5 * x[0];                  // 1 + 0.5 x - 0.25 x^2
  want[3] += 2.0 + 4.5 * x[3] * x[3];           // 2 x + 1.5 x^3
  want[2] += (0.5 - 1.5) * x[3], want[3] += (0.5 - 1.5) * x[2];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.poly == d0.poly ? 1 : 0, 1, 0);
  return fz_finish();
}
