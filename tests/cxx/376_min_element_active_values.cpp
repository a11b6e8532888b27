// OPT: O0 O2
// CFLAGS: -std=c++17
// `std::min_element`/`std::max_element`/`std::minmax_element` on active values: the
// log-sum-exp shifted by `*std::max_element` (the shift cancels: its derivative must too),
// the range `max - min` from `std::minmax_element`, and the index of the smallest weighted
// entry found by `std::min_element` over an index vector with a comparator lambda capturing
// the weights and the input by reference, whose value is then used. Oracle: the analytic
// gradient (softmax weights, the arg-min/arg-max entries) and central finite differences;
// forward mode along a direction (dot-product identity).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

double spread(const double *x, const double *w, int n) {
  double m = *std::max_element(x, x + n);
  double z = 0;
  for (int i = 0; i < n; i++) z += std::exp(x[i] - m);
  double lse = m + std::log(z);
  auto [lo, hi] = std::minmax_element(x, x + n);
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  int k = *std::min_element(idx.begin(), idx.end(),
                            [&](int a, int b) { return w[a] * x[a] < w[b] * x[b]; });
  return lse + 0.5 * (*hi - *lo) + 0.25 * w[k] * x[k] * x[k];
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double x[n] = {0.3, -1.1, 0.8, 1.6, -0.4, 0.2, 1.1}, dx[n] = {0}, fd[n], want[n];
  const double w[n] = {1.0, 0.5, 2.0, 0.7, 1.5, 0.9, 1.2};
  __enzyme_autodiff<void>((void *)spread, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
  double z = 0;
  for (int i = 0; i < n; i++) z += std::exp(x[i]);
  int imin = 0, imax = 0, kw = 0;
  for (int i = 1; i < n; i++) {
    if (x[i] < x[imin]) imin = i;
    if (x[i] > x[imax]) imax = i;
    if (w[i] * x[i] < w[kw] * x[kw]) kw = i;
  }
  for (int i = 0; i < n; i++) want[i] = std::exp(x[i]) / z;
  want[imax] += 0.5;
  want[imin] -= 0.5;
  want[kw] += 0.5 * w[kw] * x[kw];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return spread(x, w, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.2, -0.3, 0.5, 0.1, -0.6, 0.4, 0.3}, want_jv = 0;
  double jv = __enzyme_fwddiff<double>((void *)spread, enzyme_dup, x, v, enzyme_const, w,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) want_jv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, want_jv, 1e-10);
  return fz_finish();
}
