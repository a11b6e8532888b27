// OPT: O0 O2
// CFLAGS: -std=c++20
// Constant `std::deque<double>` weights inside an `enzyme_const` struct (indexed, walked by
// iterators and by `std::inner_product`-like loops), with an active input. Oracle: the
// analytic gradient, central differences, forward/reverse dot product, and the constant
// struct unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <deque>

struct Data {
  std::deque<double> w;
  std::deque<int> k;
};

double model(const double *x, const Data *d, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += d->w[i] * x[i] * x[i];
  int j = 0;
  for (auto it = d->w.begin(); it != d->w.end(); ++it, ++j) s += *it * std::cos(x[d->k[j]]);
  s += d->w.front() * d->w.back() * x[3];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Data d{{0.7, -0.2, 0.5, 0.9}, {3, 2, 1, 0}};
  const Data d0 = d;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &d, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", d.w == d0.w && d.k == d0.k ? 1 : 0, 1, 0);
  for (int i = 0; i < n; i++) want[i] += 2 * d0.w[i] * x[i];
  for (int j = 0; j < n; j++) want[d0.k[j]] += -d0.w[j] * std::sin(x[d0.k[j]]);
  want[3] += 0.7 * 0.9;
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &d0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &d,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", d.w == d0.w ? 1 : 0, 1, 0);
  return fz_finish();
}
