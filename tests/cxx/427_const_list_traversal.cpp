// OPT: O0 O2
// CFLAGS: -std=c++20
// A constant `std::list<double>` and `std::list<std::pair<int, double>>` inside an
// `enzyme_const` struct, walked forwards (range-for) and backwards (reverse iterators),
// with an active input. Oracle: the analytic gradient, central differences,
// forward/reverse dot product, and the constant struct unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <list>
#include <utility>

struct Data {
  std::list<double> c;
  std::list<std::pair<int, double>> terms;
};

double model(const double *x, const Data *d, int n) {
  double s = 0, p = 1;
  for (double c : d->c) s += c * p, p *= x[0];  // a polynomial in x[0]
  for (const auto &[i, a] : d->terms) s += a * x[i] * x[(i + 1) % n];
  for (auto r = d->terms.rbegin(); r != d->terms.rend(); ++r) s += r->second * std::exp(x[r->first]);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{1.0, -0.5, 0.25, 2.0}, {{1, 0.5}, {3, -1.25}, {2, 0.75}}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.c == d0.c && d.terms == d0.terms ? 1 : 0, 1, 0);
  want[0] += -0.5 + 2 * 0.25 * x[0] + 3 * 2.0 * x[0] * x[0];
  for (const auto &[i, a] : d0.terms) {
    want[i] += a * x[(i + 1) % n], want[(i + 1) % n] += a * x[i];
    want[i] += a * std::exp(x[i]);
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.c == d0.c && d.terms == d0.terms ? 1 : 0, 1, 0);
  return fz_finish();
}
