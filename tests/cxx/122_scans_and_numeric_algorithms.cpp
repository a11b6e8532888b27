// OPT: O0 O1 O2 O3
// C++17 <numeric> in a cumulative-return model: `std::inclusive_scan` (sum) and
// `std::exclusive_scan`, `std::partial_sum` with `std::multiplies` (a cumulative
// product of growth factors), `std::adjacent_difference`, `std::transform_inclusive_scan`,
// `std::reduce` and `std::transform_reduce` over two ranges, into `std::vector`s the
// function allocates. Oracle: analytic gradient of the cumulative product part and
// central finite differences.
#include "fz_cxx.h"
#include <functional>
#include <numeric>
#include <vector>

double cumulative_model(const double *r, int n) {
  std::vector<double> g(n), wealth(n), cs(n), ex(n), d(n), sq(n);
  for (int i = 0; i < n; i++) g[i] = 1.0 + r[i];
  std::partial_sum(g.begin(), g.end(), wealth.begin(), std::multiplies<double>());
  std::inclusive_scan(r, r + n, cs.begin());
  std::exclusive_scan(r, r + n, ex.begin(), 0.5);
  std::adjacent_difference(wealth.begin(), wealth.end(), d.begin());
  std::transform_inclusive_scan(r, r + n, sq.begin(), std::plus<>(),
                                [](double a) { return a * a; });
  double s = std::reduce(wealth.begin(), wealth.end());
  s += std::transform_reduce(cs.begin(), cs.end(), ex.begin(), 0.0) * 0.1;
  s += std::transform_reduce(d.begin(), d.end(), 0.0, std::plus<>(),
                             [](double a) { return a * a; });
  return s + sq.back();
}

#define N 7

int main() {
  double r[N], dr[N] = {0}, fd[N];
  fz_seed(122);
  fz_fill(r, N, -0.1, 0.2);
  __enzyme_autodiff<void>((void *)cumulative_model, enzyme_dup, r, dr, enzyme_const, N);
  auto f = [&] { return cumulative_model(r, N); };
  fz_fd_grad_of(f, r, N, fd);
  fz_check_arr("grad (fd)", dr, fd, N, 1e-6);
  return fz_finish();
}
