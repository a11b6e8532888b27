// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Lookups and sorting of constant data next to active values (sweep20): coefficients
// looked up in a constant `std::map<int, double>` (`find`, `at`, `count`) and in a
// `std::map<std::string, double>` built outside the function, and a `std::sort` of
// (constant key, index) pairs whose order then permutes active values (a weighted sum in
// key order with a position-dependent weight). Oracles: the analytic gradient (each
// value's weight is known from its rank) and finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct Model {
  std::map<int, double> coef;
  std::map<std::string, double> named;
};

double poly(const Model &m, double x) {
  double s = 0;
  for (int k = 0; k < 6; k++) {
    auto it = m.coef.find(k);
    if (it != m.coef.end()) s += it->second * std::pow(x, k);
  }
  if (m.coef.count(10)) s += m.coef.at(10) * std::sin(x);
  return s * m.named.at("scale") + m.named.at("shift");
}

double ranked(const int *keys, const double *v, int n) {
  std::vector<std::pair<int, int>> order;
  for (int i = 0; i < n; i++) order.emplace_back(keys[i], i);
  std::sort(order.begin(), order.end());
  double s = 0;
  for (int r = 0; r < n; r++) s += (r + 1) * v[order[r].second] * v[order[r].second];
  return s;
}

int main() {
  Model m;
  m.coef = {{0, 1.5}, {2, -0.5}, {3, 0.25}, {5, 0.1}, {10, 2.0}};
  m.named["scale"] = 1.7;
  m.named["shift"] = -3.0;
  double x = 0.8;
  double d = __enzyme_autodiff<double>((void *)poly, enzyme_const, &m, x);
  double want = 1.7 * (2 * -0.5 * x + 3 * 0.25 * x * x + 5 * 0.1 * std::pow(x, 4) +
                       2.0 * std::cos(x));
  fz_check("map coefficients: analytic", d, want, 1e-13);
  fz_check("map coefficients: forward",
           __enzyme_fwddiff<double>((void *)poly, enzyme_const, &m, x, 1.0), want, 1e-13);

  const int n = 7;
  int keys[n] = {40, 10, 70, 20, 60, 30, 50};
  double v[n] = {0.3, -1.1, 0.8, 2.0, -0.4, 1.2, 0.6}, gv[n] = {0};
  __enzyme_autodiff<void>((void *)ranked, enzyme_const, keys, enzyme_dup, v, gv, enzyme_const,
                          n);
  for (int i = 0; i < n; i++) {
    int rank = 0;
    for (int j = 0; j < n; j++) rank += keys[j] < keys[i];
    fz_check("sorted by constant keys: 2 (rank+1) v", gv[i], 2.0 * (rank + 1) * v[i], 1e-14);
    auto f = [&]() { return ranked(keys, v, n); };
    fz_check("sorted by constant keys vs FD", gv[i], fz_fd(f, v[i]), 1e-6);
  }
  return fz_finish();
}
