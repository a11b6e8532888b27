// OPT: O0 O2
// CFLAGS: -std=c++20
// A constant `std::set<double>` of knots and a `std::set<int>` of indices inside an
// `enzyme_const` struct, walked by range-for, `lower_bound` and reverse iterators, with
// an active input. Oracle: the analytic gradient, central differences, forward/reverse
// dot product, and the constant struct unchanged. A regression test (cxx36): at -O0 the
// reverse sweep crashed (SIGSEGV, also with the base binary), as cxx/422's map.
#include "fz_cxx.h"
#include <cmath>
#include <set>

struct Data {
  std::set<double> knots;
  std::set<int> idx;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  for (double t : d->knots) s += t * x[0] * x[1];
  for (int i : d->idx) s += std::exp(0.5 * x[i]);
  auto it = d->knots.lower_bound(0.0);
  if (it != d->knots.end()) s += *it * x[2] * x[2];
  for (auto r = d->knots.rbegin(); r != d->knots.rend(); ++r) s += *r * std::sin(x[3]);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{-0.5, 0.25, 1.5, 2.0}, {1, 3}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.knots == d0.knots && d.idx == d0.idx ? 1 : 0, 1, 0);
  double sum = -0.5 + 0.25 + 1.5 + 2.0;
  want[0] += sum * x[1], want[1] += sum * x[0];
  want[1] += 0.5 * std::exp(0.5 * x[1]), want[3] += 0.5 * std::exp(0.5 * x[3]);
  want[2] += 2 * 0.25 * x[2];
  want[3] += sum * std::cos(x[3]);
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.knots == d0.knots ? 1 : 0, 1, 0);
  return fz_finish();
}
