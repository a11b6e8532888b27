// OPT: O0 O2
// CFLAGS: -std=c++17
// C++17 parallel-algorithm overloads with the sequential policy, as a user writes them
// to be ready for parallelism: `std::reduce(std::execution::seq, ...)`,
// `std::transform_reduce(std::execution::seq, ...)` (a dot product and a
// binary-op/unary-op form) and `std::transform(std::execution::seq, ...)` into a vector.
// Oracle: the analytic gradient and central differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <execution>
#include <functional>
#include <numeric>
#include <vector>

constexpr int N = 8;

double policy_sums(const double *x, const double *y, int n) {
  std::vector<double> a(x, x + n), b(y, y + n), t(n);
  double s = std::reduce(std::execution::seq, a.begin(), a.end(), 0.0);
  double d = std::transform_reduce(std::execution::seq, a.begin(), a.end(), b.begin(), 0.0);
  double q = std::transform_reduce(std::execution::seq, a.begin(), a.end(), 0.0, std::plus<>(),
                                   [](double v) { return v * v * v; });
  std::transform(std::execution::seq, a.begin(), a.end(), t.begin(), [](double v) { return std::sin(v); });
  double r = std::reduce(std::execution::seq, t.begin(), t.end());
  return s * s + d + q + r;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[N], y[N], dx[N] = {0}, fd[N];
  for (int i = 0; i < N; i++) x[i] = 0.25 * i - 0.8, y[i] = std::cos(i);
  __enzyme_autodiff<void>((void *)policy_sums, enzyme_dup, x, dx, enzyme_const, y, enzyme_const, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i];
  for (int i = 0; i < N; i++)
    fz_check("analytic", dx[i], 2 * s + y[i] + 3 * x[i] * x[i] + std::cos(x[i]), 1e-12);
  fz_fd_grad_of([&] { return policy_sums(x, y, N); }, x, N, fd);
  fz_check_arr("finite differences", dx, fd, N, 1e-6);
  return fz_finish();
}
