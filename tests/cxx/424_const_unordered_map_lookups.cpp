// OPT: O0 O2
// CFLAGS: -std=c++20
// A constant `std::unordered_map<int, double>` of coefficients inside an `enzyme_const`
// struct, read by `find`, `at`, `count` and a range-for, with an active input. Oracle: the
// analytic gradient, central differences, forward/reverse dot product, and the constant
// struct unchanged. A regression test (cxx36): at -O0 the reverse sweep crashed (SIGSEGV,
// also with the base binary): the iterator `find(key)` returns, given the constant map and
// the key's local, was kept with a null shadow.
#include "fz_cxx.h"
#include <cmath>
#include <unordered_map>

struct Data {
  std::unordered_map<int, double> c;
  double scale;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    auto it = d->c.find(i);
    if (it != d->c.end()) s += it->second * x[i] * x[i];
    if (d->c.count(i + 10)) s += d->c.at(i + 10) * std::sin(x[i]);
  }
  for (const auto &[k, v] : d->c) s += d->scale * v * x[k % n];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{{0, 0.5}, {2, -0.25}, {11, 1.5}, {13, -0.75}}, 0.5};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.c == d0.c && d.scale == d0.scale ? 1 : 0, 1, 0);
  want[0] += 2 * 0.5 * x[0], want[2] += 2 * -0.25 * x[2];    // find
  want[1] += 1.5 * std::cos(x[1]), want[3] += -0.75 * std::cos(x[3]);  // count + at
  for (const auto &[k, v] : d0.c) want[k % n] += 0.5 * v;    // range-for
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.c == d0.c ? 1 : 0, 1, 0);
  return fz_finish();
}
