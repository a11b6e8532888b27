// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// probe42: cxx/496's statics plus a `static std::vector<double>` table built on the
// first call by an immediately invoked lambda, all first built inside the derivative
// call; printf and std::cout of active values inside. Oracles: analytic, central
// differences, forward = reverse.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <vector>
#include "fz_cxx.h"

static const std::vector<double> &weights() {
  static std::vector<double> w = [] {
    std::vector<double> t(16);
    for (int i = 0; i < 16; i++) t[i] = std::cos(0.1 * i);
    return t;
  }();
  return w;
}
static double fact(int k) {
  static double cache[20] = {0};
  if (k <= 1) return 1;
  if (cache[k] == 0) cache[k] = k * fact(k - 1);
  return cache[k];
}
static double scale(int k) {
  static std::map<int, double> cache;
  auto it = cache.find(k);
  if (it != cache.end()) return it->second;
  double v = 1.0 + 0.25 * k;
  cache[k] = v;
  return v;
}
double model(const double *x, int n, int verbose) {
  const auto &w = weights();
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * w[i] * scale(i % 3) + std::pow(x[i], 3) / fact(i + 2);
    s += t * t;
    if (verbose) printf("  step %d: %g\n", i, s);
  }
  if (verbose) std::cout << "  total " << s << std::endl;
  return s;
}
int main() {
  const int n = 6;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, 1);
  for (int i = 0; i < n; i++) {
    double a = std::cos(0.1 * i) * (1.0 + 0.25 * (i % 3)), f = 1;
    for (int k = 2; k <= i + 2; k++) f *= k;
    double t = x[i] * a + x[i] * x[i] * x[i] / f;
    fz_check("static caches", dx[i], 2 * t * (a + 3 * x[i] * x[i] / f), 1e-10);
  }
  auto L = [&] { return model(x, n, 0); };
  for (int i = 0; i < n; i++) fz_check("central differences", dx[i], fz_fd(L, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, n, enzyme_const, 0), dx[i], 1e-10);
  }
  return fz_finish();
}
