// OPT: O0 O2
// CFLAGS: -std=c++17
// Robust statistics of active data: the median by `std::nth_element`, a trimmed mean
// after `std::partial_sort` of the smallest k, and a weighted sum in `std::stable_sort`
// order (ties keep input order; keys are active values, the comparator compares them).
// The permutations are piecewise constant, so the gradient is that of the selected
// entries: the oracle is the analytic gradient built from an independent argsort, and
// central differences (the data have no ties within the step).
#include "fz_cxx.h"
#include <algorithm>
#include <numeric>
#include <vector>

constexpr int N = 9;

double robust(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  double median = v[n / 2];
  std::vector<double> w(x, x + n);
  std::partial_sort(w.begin(), w.begin() + 3, w.end(), std::greater<double>());
  double top3 = w[0] + w[1] + w[2];
  std::vector<double> u(x, x + n);
  std::stable_sort(u.begin(), u.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  double ranked = 0;
  for (int i = 0; i < n; i++) ranked += (i + 1) * u[i] * u[i];
  return median * median + 0.5 * top3 + 0.01 * ranked;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[N] = {0.3, -1.7, 2.2, 0.9, -0.4, 1.35, -2.6, 0.05, 1.1}, dx[N] = {0}, fd[N];
  __enzyme_autodiff<void>((void *)robust, enzyme_dup, x, dx, enzyme_const, N);
  int idx[N];
  std::iota(idx, idx + N, 0);
  std::sort(idx, idx + N, [&](int a, int b) { return x[a] < x[b]; });
  double want[N] = {0};
  want[idx[N / 2]] += 2 * x[idx[N / 2]];
  for (int k = 0; k < 3; k++) want[idx[N - 1 - k]] += 0.5;
  std::sort(idx, idx + N, [&](int a, int b) { return std::abs(x[a]) < std::abs(x[b]); });
  for (int i = 0; i < N; i++) want[idx[i]] += 0.01 * (i + 1) * 2 * x[idx[i]];
  fz_check_arr("analytic", dx, want, N, 1e-12);
  fz_fd_grad_of([&] { return robust(x, N); }, x, N, fd);
  fz_check_arr("finite differences", dx, fd, N, 1e-6);
  return fz_finish();
}
