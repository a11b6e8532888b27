// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 --check-gradients
// IGNORE-PLUGIN: `--check-gradients` is an option of `ferrozyme cc`/`c++`, not of clang with the pass plugin (the plugin trial does not build)
// probe42 (fixed): a function-local `static std::map<int, double>` cache of constants per
// key, first built inside the derivative call, under --check-gradients in strict mode (a
// disagreement exits with 86). Before, the check put the static's guard variable and the
// map back to their bytes from before the call around each finite-difference evaluation:
// each evaluation ran the initialization again and registered the map's destructor once
// more, and at exit it ran twice on the same nodes ("free(): double free detected in
// tcache 2" at every level; AddressSanitizer: heap-use-after-free in `~map`). Now the
// check leaves a static's guard and the object it initializes alone
// (`ferrozyme_abi::ONE_TIME_INIT`). Oracles: analytic, central differences, forward =
// reverse.
#include <cmath>
#include <cstdlib>
#include <map>
#include "fz_cxx.h"

static double memo_map(double x, int k) {
  static std::map<int, double> cache;
  auto it = cache.find(k);
  if (it != cache.end()) return it->second * x;
  double v = std::cos(0.1 * k);
  cache[k] = v;
  return v * x;
}
double uses_map(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += memo_map(x[i], i % 3) * x[i];
  return s;
}
int main() {
  setenv("FERROZYME_CHECK_GRADIENTS", "strict", 1);
  const int n = 5;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)uses_map, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("memo map", dx[i], 2 * std::cos(0.1 * (i % 3)) * x[i], 1e-10);
  auto L = [&] { return uses_map(x, n); };
  for (int i = 0; i < n; i++) fz_check("central differences", dx[i], fz_fd(L, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd", __enzyme_fwddiff<double>((void *)uses_map, enzyme_dup, x, e, enzyme_const, n), dx[i], 1e-10);
  }
  return fz_finish();
}
