// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// <numeric> and <algorithm> on active data: `std::transform_reduce` (binary and unary
// forms), `std::partial_sum`, `std::adjacent_difference`, `std::inner_product`,
// `std::min_element`/`std::max_element` choosing which active value flows,
// `std::transform` with a lambda, on a `std::vector<std::vector<double>>` built in the
// differentiated function. Oracle: central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <numeric>
#include <vector>

double model(const double *x, int rows, int cols) {
  std::vector<std::vector<double>> g(rows, std::vector<double>(cols));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) g[i][j] = x[i * cols + j] * (1.0 + 0.1 * j);
  double s = 0;
  for (auto &row : g) {
    std::vector<double> ps(row.size());
    std::partial_sum(row.begin(), row.end(), ps.begin());
    std::vector<double> df(row.size());
    std::adjacent_difference(row.begin(), row.end(), df.begin());
    s += std::transform_reduce(ps.begin(), ps.end(), df.begin(), 0.0);
    s += std::transform_reduce(row.begin(), row.end(), 0.0, std::plus<>(),
                               [](double v) { return v * v * v; });
    auto mn = std::min_element(row.begin(), row.end());
    auto mx = std::max_element(row.begin(), row.end());
    s += *mn * *mx;
  }
  std::vector<double> col0(rows);
  std::transform(g.begin(), g.end(), col0.begin(), [](const std::vector<double> &r) {
    return std::sin(r.front()) + r.back();
  });
  s += std::inner_product(col0.begin(), col0.end(), col0.begin(), 0.0);
  return s;
}

int main() {
  const int rows = 3, cols = 4;
  double x[rows * cols], dx[rows * cols] = {0};
  fz_fill(x, rows * cols, -1.5, 1.5);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, rows,
                          enzyme_const, cols);
  auto f = [&] { return model(x, rows, cols); };
  for (int i = 0; i < rows * cols; i++) fz_check("model dx", dx[i], fz_fd(f, x[i]), 1e-6);
  return fz_finish();
}
