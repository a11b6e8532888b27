// OPT: O0 O2
// CFLAGS: -std=c++17
// std::pair and std::tuple built, returned and unpacked with structured bindings and
// std::get/std::tie inside the differentiated code. Oracle: finite differences.
#include "fz_cxx.h"
#include <tuple>
#include <utility>
#include <cmath>

std::pair<double, double> sincos(double t) { return {std::sin(t), std::cos(t)}; }
std::tuple<double, int, double> stats(const double *x, int n) {
  double s = 0, m = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    m = std::fmax(m, x[i] * x[i]);
  }
  return {s, n, m};
}

double model(const double *x, int n) {
  auto [s, cnt, m] = stats(x, n);
  auto [sn, cs] = sincos(s / cnt);
  double a, b;
  std::tie(a, b) = sincos(m);
  std::tuple<double, double> t{sn * cs, a - b};
  return std::get<0>(t) + std::get<1>(t) * m;
}

int main() {
  fz_seed(329);
  const int n = 5;
  double x[n], dx[n], fd[n];
  for (int i = 0; i < n; i++) x[i] = -0.5 + 0.2 * i + fz_uniform(0, 0.05);  // distinct |x|
  x[n - 1] = 1.3;  // the largest square, by a margin
  fz_zero(dx, n);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
