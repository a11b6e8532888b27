// OPT: O0 O2
// CFLAGS: -std=c++17
// A model whose parameters are gathered as `std::vector<std::reference_wrapper<const
// double>>` views into the parameter array (users do this to hand "the weights of layer
// k" to a regularizer without copying), the views sorted by the referenced value
// (`std::sort` permutes the wrappers, never the doubles), the largest three summed
// through `std::accumulate` over `.get()`, and an `std::ref` to an accumulator passed to
// `std::for_each`'s functor. Oracle: central differences, the analytic gradient (the
// top-3 set is fixed near the point), and forward/reverse dot products.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

struct SumSquares {
  double &acc;
  void operator()(const double &v) const { acc += v * v; }
};

double loss(const double *p, int n) {
  std::vector<std::reference_wrapper<const double>> odd, all;
  for (int i = 0; i < n; i++) {
    all.push_back(std::cref(p[i]));
    if (i % 2) odd.push_back(std::cref(p[i]));
  }
  std::sort(all.begin(), all.end(),
            [](const double &a, const double &b) { return a > b; });
  double top3 = std::accumulate(all.begin(), all.begin() + 3, 0.0,
                                [](double s, std::reference_wrapper<const double> r) {
                                  return s + std::sin(r.get());
                                });
  double reg = 0;
  std::for_each(odd.begin(), odd.end(), SumSquares{reg});
  double prod = 1;
  for (const double &v : odd) prod *= 1 + 0.1 * v;
  return top3 + 0.5 * reg + std::log(prod);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double p[n] = {0.3, 1.2, -0.4, 0.9, 2.1, -1.3, 0.7}, dp[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, p, dp, enzyme_const, n);
  fz_fd_grad_of([&] { return loss(p, n); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  // analytic: the three largest are p[4]=2.1, p[1]=1.2, p[3]=0.9; odd indices 1, 3, 5
  double want[n] = {0};
  for (int i : {4, 1, 3}) want[i] += std::cos(p[i]);
  for (int i : {1, 3, 5}) want[i] += p[i] + 0.1 / (1 + 0.1 * p[i]);
  fz_check_arr("d/dp analytic", dp, want, n, 1e-12);
  double v[n] = {0.5, -0.2, 0.3, 0.8, -0.6, 0.1, 0.4}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, p, v, enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
