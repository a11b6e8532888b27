// OPT: O0 O2
// CFLAGS: -std=c++20
// The `std::vector<double>` of cxx/422's constant struct walked through a
// `std::span<const double>` of it with `views::drop` (with other calls beside it, such as
// `std::ranges::max_element(d->w)`, the same span passes: the caller then guards its
// reads). A regression test (cxx36): at -O0 the reverse sweep added adjoints into the
// constant vector (the gradient was right, the user's data changed): `span(const vector
// &)` keeps `ranges::data(v)`, a pointer `vector::data()` reads out of its parameter and
// returns, and the caller's keep-walk did not follow it. Oracle: the analytic gradient,
// central differences, forward/reverse dot products, and the constant struct unchanged.
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
  std::span<const double> sp(d->w);
  int i = 1;
  for (double v : sp | std::views::drop(1)) s += v * std::exp(x[i++ % n]);
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
  for (int k = 1; k < 4; k++) want[k % n] += d0.w[k] * std::exp(x[k % n]);  // span | drop
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
