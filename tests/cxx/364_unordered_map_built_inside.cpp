// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// A `std::unordered_map<int, double>` built inside the differentiated function: sparse
// accumulation of active contributions into buckets keyed by integer labels (`operator[]`
// with `+=`, `emplace`, `try_emplace`, `find`, `count`, `erase`), enough keys to rehash,
// then a reduction by iterating the map (its order is the table's, so the sum is
// order-independent up to rounding). Oracle: the analytic gradient and central
// differences.
#include "fz_cxx.h"
#include <cmath>
#include <unordered_map>

double binned(const double *x, const int *label, int n) {
  std::unordered_map<int, double> bins;
  for (int i = 0; i < n; i++) bins[label[i]] += x[i] * x[i];
  for (int i = 0; i < n; i++) bins.try_emplace(100 + label[i] % 3, 0.0).first->second += x[i];
  bins.emplace(-1, 2.0 * x[0]);
  bins.erase(7);  // label 7's squares drop out
  double s = 0;
  for (const auto &[k, v] : bins) s += (k % 2 == 0 ? 1.5 : 1.0) * std::sin(v);
  auto it = bins.find(3);
  if (it != bins.end() && bins.count(100)) s += it->second * bins.at(100);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 24;
  double x[n], dx[n] = {0}, fd[n], want[n] = {0};
  int label[n];
  for (int i = 0; i < n; i++) x[i] = 0.3 * std::sin(1.7 * i) + 0.1, label[i] = (5 * i) % 11;
  __enzyme_autodiff<void>((void *)binned, enzyme_dup, x, dx, enzyme_const, label,
                          enzyme_const, n);
  double sq[11] = {0}, lin[3] = {0};
  for (int i = 0; i < n; i++) sq[label[i]] += x[i] * x[i], lin[label[i] % 3] += x[i];
  for (int i = 0; i < n; i++) {
    int l = label[i], m = 100 + l % 3;
    double wl = l % 2 == 0 ? 1.5 : 1.0, wm = m % 2 == 0 ? 1.5 : 1.0;
    if (l != 7) want[i] += wl * std::cos(sq[l]) * 2 * x[i];
    want[i] += wm * std::cos(lin[l % 3]);
    if (l == 3) want[i] += 2 * x[i] * lin[0];
    if (l % 3 == 0) want[i] += sq[3];
  }
  want[0] += 1.0 * std::cos(2.0 * x[0]) * 2.0;  // key -1: odd
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return binned(x, label, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  return fz_finish();
}
