// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A user's pricing-style computation: records `{double key; int id; double weight}` in a
// `std::vector`, keys computed from the parameters, `std::sort` of the records by their
// active key (the records' doubles move with the sort), a piecewise-linear lookup in a
// constant knot table with `std::lower_bound` and `std::distance`, `std::accumulate` with
// a lambda capturing by reference, and the result summed in sorted order with rank
// weights. The sort's permutation is locally constant, so the gradient is that of the
// frozen order. Oracles: central finite differences and the forward/reverse dot product.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Rec {
  double key;
  int id;
  double weight;
};

static const std::vector<double> kKnots = {-2.0, -1.0, -0.25, 0.5, 1.5, 3.0};
static const std::vector<double> kVals = {0.1, 0.4, 0.9, 1.2, 0.7, 0.3};
// Constant tables built by their constructors: marked inactive, as the error without
// this line asks (Enzyme's default treats globals as inactive; Ferrozyme asks).
void *__enzyme_inactive_global[] = {(void *)&kKnots, (void *)&kVals};

static double interp(double x) {
  auto it = std::lower_bound(kKnots.begin(), kKnots.end(), x);
  if (it == kKnots.begin()) return kVals.front();
  if (it == kKnots.end()) return kVals.back();
  auto k = std::distance(kKnots.begin(), it);
  double t = (x - kKnots[k - 1]) / (kKnots[k] - kKnots[k - 1]);
  return (1 - t) * kVals[k - 1] + t * kVals[k];
}

double price(const double *p, int n) {
  std::vector<Rec> rs;
  rs.reserve(2);  // grows while filled
  for (int i = 0; i < n; i++)
    rs.push_back(Rec{std::sin(p[i]) * 2 + 0.3 * i, i, p[(i + 1) % n] * p[(i + 1) % n]});
  std::sort(rs.begin(), rs.end(), [](const Rec &a, const Rec &b) { return a.key < b.key; });
  double total = 0;
  int rank = 0;
  total = std::accumulate(rs.begin(), rs.end(), 0.0, [&](double s, const Rec &r) {
    rank++;
    return s + r.weight * interp(r.key) / rank + 0.01 * r.id * r.key;
  });
  return total;
}

int main() {
  const int n = 7;
  double p[n], dp[n] = {0}, fd[n], v[n];
  for (int i = 0; i < n; i++) {
    p[i] = 1.3 * std::sin(1.9 * i + 0.2);
    v[i] = std::cos(0.8 * i);
  }
  __enzyme_autodiff<void>((void *)price, enzyme_dup, p, dp, enzyme_const, n);
  fz_fd_grad_of([&] { return price(p, n); }, p, n, fd);
  fz_check_arr("reverse vs fd", dp, fd, n, 1e-6);
  double t = __enzyme_fwddiff<double>((void *)price, enzyme_dup, p, v, enzyme_const, n);
  double dot = 0;
  for (int i = 0; i < n; i++) dot += dp[i] * v[i];
  fz_check("forward vs reverse dot", t, dot, 1e-10);
  return fz_finish();
}
