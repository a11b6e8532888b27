// OPT: O0 O1 O2 O3
// probe42 (fixed at -O1/-O2): std::list (push_front/push_back), a std::deque window,
// a std::set<int> of indices chosen by active values, an
// `std::unordered_map<int, std::vector<double>>` of per-group samples grown by
// push_back, recursion on a std::vector passed by value. Before: cannot-deduce-type at
// -O1/-O2 at the memmove of a group vector's reallocation. Oracles: central
// differences, forward = reverse.
#include <cmath>
#include <deque>
#include <list>
#include <set>
#include <unordered_map>
#include <vector>
#include "fz_cxx.h"

// std::list and std::deque of active doubles, std::set<int> of indices, an
// unordered_map<int, std::vector<double>> of per-group samples, recursion on a vector by value.
static double rsum(std::vector<double> v) {
  if (v.size() <= 1) return v.empty() ? 0 : v[0] * v[0];
  double last = v.back();
  v.pop_back();
  return std::cos(last) + 0.5 * rsum(v);
}
double model(const double *x, const int *grp, int n) {
  std::list<double> l;
  std::deque<double> d;
  std::set<int> picked;
  std::unordered_map<int, std::vector<double>> groups;
  for (int i = 0; i < n; i++) {
    if (i % 2) l.push_front(x[i] * 1.5); else l.push_back(std::exp(x[i]));
    d.push_front(x[i]);
    if (d.size() > 3) d.pop_back();
    if (x[i] > 0) picked.insert(i);
    groups[grp[i]].push_back(x[i] * x[i]);
  }
  double s = 0;
  int k = 1;
  for (double e : l) s += e * k++;
  for (double e : d) s += e * e * e;
  for (int i : picked) s += std::sin(x[i]);
  for (auto &[g, v] : groups) {
    double m = 0;
    for (double e : v) m += e;
    s += std::sqrt(m + g);
  }
  return s + rsum(std::vector<double>(x, x + n));
}
int main() {
  const int n = 7;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9}, dx[n] = {0};
  int grp[n] = {0, 1, 0, 2, 1, 1, 0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, grp, enzyme_const, n);
  auto L = [&] { return model(x, grp, n); };
  for (int i = 0; i < n; i++) fz_check("containers", dx[i], fz_fd(L, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, grp, enzyme_const, n), dx[i], 1e-10);
  }
  return fz_finish();
}
