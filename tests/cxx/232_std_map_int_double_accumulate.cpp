// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// stl24: `std::map<int, double>` as an accumulator: `m[k] += w * x[i]` with repeated
// inactive keys, then `std::accumulate` over the map's values and a weighted walk, and
// `m.size()` (the tree header's `_M_node_count`) used as a count. Oracle: the analytic
// gradient (bucket b's value is the sum of its x_i^2 terms) and central finite
// differences.
#include "fz_cxx.h"
#include <map>
#include <numeric>

double model(const double *x, int n) {
  std::map<int, double> m;
  for (int i = 0; i < n; i++) m[i % 3] += x[i] * x[i];
  double total = std::accumulate(m.begin(), m.end(), 0.0,
                                 [](double acc, const std::pair<const int, double> &kv) { return acc + kv.second; });
  double weighted = 0.0;
  for (const auto &kv : m) weighted += (kv.first + 1) * kv.second * kv.second;
  return total / (double)m.size() + weighted;
}

int main() {
  const int n = 8;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75, 1.1, -0.2}, dx[n] = {0}, fd[n], an[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  double bucket[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) bucket[i % 3] += x[i] * x[i];
  for (int i = 0; i < n; i++) {
    int k = i % 3;
    an[i] = (1.0 / 3.0 + 2.0 * (k + 1) * bucket[k]) * 2.0 * x[i];
  }
  fz_check_arr("dx analytic", dx, an, n, 1e-9);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx fd", dx, fd, n, 1e-6);
  return fz_finish();
}
