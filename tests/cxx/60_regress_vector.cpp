// OPT: O0 O2
// CFLAGS: -std=c++17
// Regression for issue 10, item 3, as a new user writes it: a function taking
// `const std::vector<double> &`, copying it into a local vector and writing an output
// vector, differentiated with both vectors duplicated (shadow vectors of the same
// size), in reverse and forward mode. The compiler crashed at -O0 (segmentation fault)
// and stopped with "mismatched activity" at -O2. Oracles: analytic
// (y_i = x_i^2 + x_{i+1} x_i, the sum seeded with w).
#include "fz_cxx.h"
#include <vector>

void compute(const std::vector<double> &x, std::vector<double> &y) {
  std::vector<double> shifted(x.begin() + 1, x.end());
  shifted.push_back(0.0);
  for (size_t i = 0; i < x.size(); i++) y[i] = x[i] * x[i] + shifted[i] * x[i];
}

int main() {
  fz_seed(360);
  const int n = 6;
  std::vector<double> x(n), dx(n, 0.0), y(n, 0.0), dy(n);
  for (auto &v : x) v = fz_uniform(-1, 1);
  std::vector<double> w(n);
  for (auto &v : w) v = fz_uniform(-1, 1);
  dy = w;
  __enzyme_autodiff((void *)compute, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  for (int i = 0; i < n; i++) {
    double next = i + 1 < n ? x[i + 1] : 0.0, prev = i > 0 ? x[i - 1] : 0.0;
    double want = w[i] * (2 * x[i] + next) + (i > 0 ? w[i - 1] * prev : 0.0);
    fz_check("dx", dx[i], want, 1e-12);
  }
  std::vector<double> tx(n), ty(n, 0.0);
  for (auto &v : tx) v = fz_uniform(-1, 1);
  __enzyme_fwddiff<void>((void *)compute, enzyme_dup, &x, &tx, enzyme_dup, &y, &ty);
  for (int i = 0; i < n; i++) {
    double next = i + 1 < n ? x[i + 1] : 0.0, tnext = i + 1 < n ? tx[i + 1] : 0.0;
    fz_check("ty", ty[i], (2 * x[i] + next) * tx[i] + x[i] * tnext, 1e-12);
  }
  return fz_finish();
}
