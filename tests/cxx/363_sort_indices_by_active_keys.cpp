// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// `std::sort` of an index vector (`std::iota`) by a comparator
// lambda reading active keys (computed from the input: k_i = x_i^2 - x_i), then a
// rank-weighted sum over the sorted order (a trimmed, rank-weighted loss; the order is
// piecewise constant, so the derivative is that of the weights times the keys), a second
// sort by |x| with a lambda capturing the input pointer by value, and a
// `std::nth_element` median (`std::stable_sort` is cxx/366). Oracle: the analytic
// gradient for the fixed order and central differences (keys far apart, so the order
// is the same at x +- h).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

double ranked(const double *x, int n) {
  std::vector<double> key(n);
  for (int i = 0; i < n; i++) key[i] = x[i] * x[i] - x[i];
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](int a, int b) { return key[a] < key[b]; });
  double s = 0;
  for (int r = 0; r < n - 2; r++) s += (r + 1) * key[idx[r]];  // drop the two largest
  std::vector<int> idx2(idx.rbegin(), idx.rend());
  std::sort(idx2.begin(), idx2.end(),
            [x](int a, int b) { return std::fabs(x[a]) < std::fabs(x[b]); });
  s += 0.5 * x[idx2[0]] * x[idx2[n - 1]];
  std::vector<double> k2(key);
  std::nth_element(k2.begin(), k2.begin() + n / 2, k2.end());
  return s + k2[n / 2];
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double x[n] = {1.9, -0.8, 0.2, 2.7, -1.6, 1.1, -2.3}, dx[n] = {0}, fd[n], want[n] = {0};
  __enzyme_autodiff<void>((void *)ranked, enzyme_dup, x, dx, enzyme_const, n);
  // the same order, computed here by a selection sort
  double key[n];
  int idx[n];
  for (int i = 0; i < n; i++) key[i] = x[i] * x[i] - x[i], idx[i] = i;
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (key[idx[b]] < key[idx[a]]) std::swap(idx[a], idx[b]);
  for (int r = 0; r < n - 2; r++) want[idx[r]] += (r + 1) * (2 * x[idx[r]] - 1);
  want[idx[n / 2]] += 2 * x[idx[n / 2]] - 1;
  int lo = 0, hi = 0;
  for (int i = 1; i < n; i++) {
    if (std::fabs(x[i]) < std::fabs(x[lo])) lo = i;
    if (std::fabs(x[i]) > std::fabs(x[hi])) hi = i;
  }
  want[lo] += 0.5 * x[hi];
  want[hi] += 0.5 * x[lo];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return ranked(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  return fz_finish();
}
