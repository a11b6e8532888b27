// OPT: O0 O2
// CFLAGS: -std=c++20
// A constant `std::map<int, double>` of coefficients inside an `enzyme_const` struct,
// walked by a range-for with structured bindings (by value and by reference), as C++17
// code reads a sparse table (cxx/423: the same struct's vector through a span). A
// regression test (cxx36): at -O0 the reverse sweep crashed (SIGSEGV, also with the base
// binary): the iterator `begin()` reads out of the constant map was kept with a null
// shadow, which `_Rb_tree_increment`'s shadow walk followed; with that fixed, the by-value structured
// binding's copy of the node's `pair<const int, double>` was refused. Oracle:
// the analytic gradient, central differences, forward/reverse dot products, and the
// constant struct unchanged.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <ranges>
#include <span>
#include <tuple>
#include <vector>

struct Data {
  std::vector<double> w;
  std::vector<std::vector<double>> rows;
  std::map<int, double> m;
  std::vector<std::tuple<double, int>> tup;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  for (auto [k, v] : d->m) s += v * x[k];
  for (const auto &[k, v] : d->m) s += v * std::sin(x[k]) * x[3];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{0.7, -0.2, 0.5, 0.9},
         {{0.1, 0.2}, {0.3}, {0.4, -0.5}},
         {{0, 0.5}, {2, -0.25}},
         {{0.6, 1}, {-0.3, 3}}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  bool same = d.w == d0.w && d.rows == d0.rows && d.m == d0.m && d.tup == d0.tup;
  fz_check("enzyme_const struct unchanged", same ? 1 : 0, 1, 0);
  // the analytic gradient, term by term
  want[0] += 0.5, want[2] += -0.25;                          // map, structured bindings
  want[0] += 0.5 * std::cos(x[0]) * x[3], want[2] += -0.25 * std::cos(x[2]) * x[3];
  want[3] += 0.5 * std::sin(x[0]) - 0.25 * std::sin(x[2]);  // the same by reference
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
