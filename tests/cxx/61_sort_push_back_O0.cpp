// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// Regression: std::vector built with push_back, sorted with std::sort and indexed with
// operator[], differentiated at -O0, where none of it is inlined. Two bugs were found
// here: the const `operator[]` (its `double &` result) was classified as an inactive
// library call, so every gradient through it was silently zero, and std::sort's
// `__copy_move_b<double>` only memmoves bytes (its `double *` parameters now type the
// memory from the mangled name). Oracle: analytic (y_i = (i+1) * (i-th smallest x_j^2),
// the sum seeded with w), and central differences of the whole function.
#include "fz_cxx.h"
#include <algorithm>
#include <vector>

void sorted_squares(const std::vector<double> &x, std::vector<double> &y) {
  std::vector<double> t;
  for (double v : x) t.push_back(v * v);
  std::sort(t.begin(), t.end());
  y.resize(t.size());
  for (size_t i = 0; i < t.size(); i++) y[i] = t[i] * double(i + 1);
}

int main() {
  fz_seed(61);
  const int n = 7;
  std::vector<double> x(n), dx(n, 0.0), y(n, 0.0), dy(n), w(n);
  for (auto &v : x) v = fz_uniform(-1, 1);
  for (auto &v : w) v = fz_uniform(-1, 1);
  dy = w;
  __enzyme_autodiff((void *)sorted_squares, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  // The rank of x_j^2 among the squares (all distinct for this seed).
  for (int j = 0; j < n; j++) {
    int rank = 0;
    for (int k = 0; k < n; k++) rank += x[k] * x[k] < x[j] * x[j];
    fz_check("dx analytic", dx[j], w[rank] * (rank + 1) * 2 * x[j], 1e-12);
    auto loss = [&]() {
      std::vector<double> yy;
      sorted_squares(x, yy);
      double s = 0;
      for (int i = 0; i < n; i++) s += w[i] * yy[i];
      return s;
    };
    fz_check("dx fd", dx[j], fz_fd(loss, x[j]), 1e-6);
  }
  return fz_finish();
}
