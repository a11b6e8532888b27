// OPT: O0 O2
// CFLAGS: -std=c++20
// Reordering algorithms on records with active fields: a struct with a defaulted
// `operator<=>` (lexicographic over an int group and an active double) sorted by
// `std::ranges::sort`, `std::partition` and `std::stable_partition` splitting active samples
// by a predicate on their (active) value, and `std::ranges::max` / `std::minmax` through the
// synthesized comparisons. The order the comparisons pick is a constant of the point (no
// ties), so the derivative is that of the values in their chosen places, weighted by
// position.
// Oracle: the same selection done by hand on an index array (insertion sort over the
// same keys), central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <compare>
#include <vector>

struct Sample {
  int group;
  double value;
  auto operator<=>(const Sample &) const = default;
  bool operator==(const Sample &) const = default;
};

double model(const double *x, const int *group, int n) {
  std::vector<Sample> s;
  for (int i = 0; i < n; i++) s.push_back({group[i], x[i] * x[i] - x[i]});
  std::ranges::sort(s);
  double f = 0;
  for (int i = 0; i < n; i++) f += (i + 1) * s[i].value;
  std::vector<double> v(x, x + n);
  auto mid = std::partition(v.begin(), v.end(), [](double t) { return t > 0; });
  double pos = 0;
  for (auto it = v.begin(); it != mid; ++it) pos += std::exp(*it);
  std::vector<double> w(x, x + n);
  auto smid = std::stable_partition(w.begin(), w.end(), [](double t) { return t < 0.5; });
  double ordered = 0;
  for (int i = 0; i < smid - w.begin(); i++) ordered += (i + 2) * w[i];
  Sample best = std::ranges::max(s);
  auto [lo, hi] = std::minmax(x[0], x[1]);
  return f + pos + ordered + best.value * 3 + lo * hi * hi;
}

// The oracle: the same quantities with explicit index bookkeeping.
double model_by_hand(const double *x, const int *group, int n) {
  int idx[64];
  for (int i = 0; i < n; i++) idx[i] = i;
  auto key = [&](int i) { return x[i] * x[i] - x[i]; };
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0; j--) {
      int a = idx[j - 1], b = idx[j];
      bool less = group[b] < group[a] || (group[b] == group[a] && key(b) < key(a));
      if (!less) break;
      idx[j - 1] = b;
      idx[j] = a;
    }
  double f = 0;
  for (int i = 0; i < n; i++) f += (i + 1) * key(idx[i]);
  double pos = 0, ordered = 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) pos += std::exp(x[i]);
    if (x[i] < 0.5) ordered += (k++ + 2) * x[i];
  }
  double lo = std::min(x[0], x[1]), hi = std::max(x[0], x[1]);
  return f + pos + ordered + key(idx[n - 1]) * 3 + lo * hi * hi;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 9;
  double x[n] = {0.9, -0.4, 1.7, 0.2, -1.1, 0.65, 2.3, -0.05, 0.45}, dx[n] = {0}, fd[n];
  int group[n] = {1, 0, 1, 2, 0, 2, 1, 0, 2};
  fz_check("primal matches the hand-made order", model(x, group, n), model_by_hand(x, group, n),
           1e-12);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, group, enzyme_const, n);
  fz_fd_grad_of([&] { return model_by_hand(x, group, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences of the hand-made order", dx, fd, n, 1e-6);
  double v[n], dv = 0;
  for (int i = 0; i < n; i++) v[i] = std::sin(2.0 + i);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, group,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
