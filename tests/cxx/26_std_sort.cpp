// OPT: O0 O2
// CFLAGS: -std=c++17
// std::sort of doubles inside the differentiated function (a robust trimmed mean: sort
// a copy, drop the extremes), with the default order and with a comparator lambda.
// The derivative follows the permutation: each input receives the weight of the rank it
// ended at. Oracle: finite differences (inputs distinct, away from ties).
#include "fz_cxx.h"
#include <algorithm>
#include <vector>

double trimmed(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 1; i + 1 < n; i++) s += v[i] * (1.0 + 0.1 * i);
  double w[8];
  for (int i = 0; i < n; i++) w[i] = x[i] * x[i];
  std::sort(w, w + n, [](double a, double b) { return a > b; });
  return s / (n - 2) + w[0] - w[n - 1];
}

int main() {
  fz_seed(326);
  const int n = 8;
  double x[n], dx[n], fd[n];
  for (int i = 0; i < n; i++) x[i] = (i % 2 ? 1 : -1) * (0.2 + 0.17 * i) + fz_uniform(0, 0.05);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)trimmed, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return trimmed(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
