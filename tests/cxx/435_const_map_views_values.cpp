// OPT: O0 O2
// CFLAGS: -std=c++20
// Views over constant containers in an `enzyme_const` struct: `m | std::views::values` of a
// `std::map<int, double>`, `std::views::elements<0>` of a `std::vector<std::tuple<double,
// int>>`, and `std::views::keys` (cxx/422's other probes, which crashed at -O0 the same
// way), with an active input. Oracle: the analytic gradient, central differences,
// forward/reverse dot product, and the constant struct unchanged. A regression test
// (cxx36): at -O0 the reverse sweep crashed (SIGSEGV, also with the base binary).
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <ranges>
#include <tuple>
#include <vector>

struct Data {
  std::map<int, double> m;
  std::vector<std::tuple<double, int>> tup;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  int i = 0;
  for (double v : d->m | std::views::values) s += v * x[i++ % n];
  for (double c : d->tup | std::views::elements<0>) s += c * x[0] * x[1];
  for (int k : d->m | std::views::keys) s += std::sin(x[k]);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{{0, 0.5}, {2, -0.25}, {3, 1.25}}, {{0.6, 1}, {-0.3, 3}}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.m == d0.m && d.tup == d0.tup ? 1 : 0, 1, 0);
  want[0] += 0.5, want[1] += -0.25, want[2] += 1.25;     // values, in key order
  want[0] += 0.3 * x[1], want[1] += 0.3 * x[0];          // elements<0>: 0.6 - 0.3
  for (int k : {0, 2, 3}) want[k] += std::cos(x[k]);     // keys
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.m == d0.m && d.tup == d0.tup ? 1 : 0, 1, 0);
  return fz_finish();
}
