// OPT: O0 O2
// CFLAGS: -std=c++17
// <algorithm> and <numeric> in the differentiated code: std::max_element and
// std::min_element (the derivative goes to the selected element), std::accumulate with
// the default and a custom operation, std::inner_product, std::transform with a lambda,
// std::min/std::max/std::clamp. Oracle: finite differences (inputs away from ties).
#include "fz_cxx.h"
#include <algorithm>
#include <numeric>
#include <vector>
#include <cmath>

double stats(const double *x, const double *y, int n) {
  const double *mx = std::max_element(x, x + n);
  const double *mn = std::min_element(y, y + n);
  double sum = std::accumulate(x, x + n, 0.0);
  double prod = std::accumulate(y, y + n, 1.0, [](double a, double b) { return a * (1 + 0.1 * b); });
  double dot = std::inner_product(x, x + n, y, 0.0);
  std::vector<double> t(n);
  std::transform(x, x + n, y, t.begin(), [](double a, double b) { return std::sin(a) * b; });
  double tsum = std::accumulate(t.begin(), t.end(), 0.0);
  double c = std::clamp(sum, -0.5, 0.5) + std::max(*mx, 0.0) * std::min(*mn, 0.0);
  return *mx * *mn + sum * prod + dot + tsum + c;
}

int main() {
  fz_seed(314);
  const int n = 7;
  double x[n], y[n], dx[n], dy[n], fd[n];
  for (int i = 0; i < n; i++) {
    x[i] = -0.8 + 0.3 * i + fz_uniform(0, 0.1);  // distinct; sum in [0.7, 1.4]: clamped
    y[i] = 1.2 - 0.35 * i + fz_uniform(0, 0.1);
  }
  fz_zero(dx, n);
  fz_zero(dy, n);
  __enzyme_autodiff((void *)stats, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
  auto f = [&] { return stats(x, y, n); };
  fz_fd_grad_of(f, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  fz_fd_grad_of(f, y, n, fd);
  fz_check_arr("dy", dy, fd, n, 1e-6);
  return fz_finish();
}
