// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `<numeric>`/`<algorithm>` with lambdas over `std::vector<double>` built inside the
// differentiated function (sweep19): `std::transform` (unary and binary, with captures by
// reference and by value), `std::inner_product` with custom plus/times lambdas,
// `std::accumulate` with a lambda, `std::transform_reduce`, `std::adjacent_difference`,
// `std::partial_sum` and `std::max_element` picking the active maximum. Reverse mode
// against the analytic gradient where it is simple and finite differences everywhere;
// forward mode against the reverse (dot-product identity).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

double pipeline(const double *xp, int n, double alpha) {
  std::vector<double> x(xp, xp + n), y(n), z(n), d(n), c(n);
  std::transform(x.begin(), x.end(), y.begin(), [alpha](double v) { return std::tanh(alpha * v); });
  std::transform(x.begin(), x.end(), y.begin(), z.begin(), [&](double a, double b) { return a * b + alpha; });
  double ip = std::inner_product(y.begin(), y.end(), z.begin(), 0.0,
                                 [](double a, double b) { return a + b; },
                                 [](double a, double b) { return a * std::exp(-b * b); });
  double acc = std::accumulate(x.begin(), x.end(), 1.0, [](double a, double b) { return a * (1 + 0.1 * b); });
  double tr = std::transform_reduce(x.begin(), x.end(), z.begin(), 0.0, std::plus<>(),
                                    [](double a, double b) { return std::sin(a) * b; });
  std::adjacent_difference(x.begin(), x.end(), d.begin());
  std::partial_sum(d.begin(), d.end(), c.begin());  // c == x again
  double mx = *std::max_element(y.begin(), y.end());
  return ip + acc + tr + 0.5 * std::inner_product(c.begin(), c.end(), c.begin(), 0.0) + mx * mx;
}

double sum_sq(const double *xp, int n) {
  std::vector<double> x(xp, xp + n), sq(n);
  std::transform(x.begin(), x.end(), sq.begin(), [](double v) { return v * v; });
  return std::accumulate(sq.begin(), sq.end(), 0.0);
}

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.8, 1.2, 0.5, -0.1, 0.9}, dx[n] = {0}, fd[n];
  double alpha = 1.3;
  __enzyme_autodiff<void>((void *)sum_sq, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("d sum x^2 = 2x", dx[i], 2 * x[i], 1e-14);
  double dx2[n] = {0};
  double dalpha = __enzyme_autodiff<double>((void *)pipeline, enzyme_dup, x, dx2, enzyme_const, n, alpha);
  auto f = [&]() { return pipeline(x, n, alpha); };
  fz_fd_grad_of(f, x, n, fd);
  fz_check_arr("pipeline gradient vs FD", dx2, fd, n, 1e-6);
  fz_check("d/dalpha vs FD", dalpha, fz_fd(f, alpha), 1e-6);
  double v[n] = {1, -0.5, 0.25, 2, -1, 0.75};
  double t = __enzyme_fwddiff<double>((void *)pipeline, enzyme_dup, x, v, enzyme_const, n, alpha, 0.0);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += v[i] * dx2[i];
  fz_check("forward = <v, gradient>", t, dot, 1e-12);
  return fz_finish();
}
