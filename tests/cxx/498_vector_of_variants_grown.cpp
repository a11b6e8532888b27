// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// probe42: a `std::vector<std::variant<int, double>>` grown by `emplace_back` past its
// capacity (the elements are relocated to a new buffer), the double alternative built
// from `std::optional<double>` results, read back with `std::get_if`/`std::get`. Oracles:
// central differences, forward = reverse.
#include <cmath>
#include <optional>
#include <variant>
#include <vector>
#include "fz_cxx.h"

static std::optional<double> safe_inv(double x) {
  if (std::fabs(x) < 1e-3) return std::nullopt;
  return 1.0 / x;
}
using Val = std::variant<int, double>;
double model(const double *x, int n) {
  std::vector<Val> vals;
  for (int i = 0; i < n; i++) {
    if (auto inv = safe_inv(x[i])) vals.emplace_back(*inv * x[0]);
    else vals.emplace_back(i);
  }
  double e = 0;
  for (auto &v : vals) {
    if (auto *d = std::get_if<double>(&v)) e += *d;
    else e += std::get<int>(v);
  }
  return e;
}
int main() {
  const int n = 8;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  auto L = [&] { return model(x, n); };
  for (int i = 0; i < n; i++) fz_check("variants", dx[i], fz_fd(L, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd variants", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, n), dx[i], 1e-10);
  }
  return fz_finish();
}
