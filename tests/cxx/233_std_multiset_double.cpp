// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// stl24: `std::multiset<double>` of active values with duplicates (each value inserted
// twice), `lower_bound` with an inactive probe, `erase` of one element by iterator,
// `count` and iteration in order; the sum is weighted by rank. Oracle: central finite
// differences (the inputs are distinct and away from the probe, so the order is locally
// fixed).
#include "fz_cxx.h"
#include <set>

double model(const double *x, int n) {
  std::multiset<double> m;
  for (int i = 0; i < n; i++) {
    m.insert(x[i] * 2.0);
    m.insert(x[i] * 2.0);
  }
  auto lb = m.lower_bound(0.0);
  if (lb != m.end()) m.erase(lb);
  double s = 0.0;
  int k = 1;
  for (double v : m) s += k++ * v * v;
  return s + (double)m.size();
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx fd", dx, fd, n, 1e-6);
  return fz_finish();
}
