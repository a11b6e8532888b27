// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type in std::variant's storage: the int alternative is read (i32) from the bytes that hold the double alternative, which type analysis sees as one ambiguous location ("the value looks like Integer, the memory like Anything").
// IGNORE-O1: "integer arithmetic on the bits of a floating-point value": at -O1 SROA keeps the variant's union in an i64 and the int alternative's store becomes and/or on the double's bits.
// IGNORE-REF: the same as at -O1 (the --ad-before-opt trial differentiates that IR).
// std::variant<double, int> visited with std::visit (an active double alternative and an
// inactive int one) next to std::optional and std::valarray (93 without the variant).
// Passes at -O2/-O3, where the variant's union is optimized away; see the IGNORE lines.
// Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <optional>
#include <valarray>
#include <variant>

static std::optional<double> safe_log(double v) {
  if (v <= 0.0) return std::nullopt;
  return std::log(v);
}

using Num = std::variant<double, int>;

static double weight(const Num &n) {
  return std::visit([](auto v) -> double {
    if constexpr (std::is_same_v<decltype(v), double>) return v * v;
    else return 0.5 * v;
  }, n);
}

double model(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    auto l = safe_log(x[i]);
    s += l.value_or(-x[i]);
    Num v = (i % 2 == 0) ? Num{x[i] * 1.5} : Num{i};
    s += weight(v);
  }
  std::valarray<double> a(x, n), b(n);
  for (int i = 0; i < n; i++) b[i] = 0.1 * (i + 1);
  std::valarray<double> c = a * a + b * a;
  c = c.apply([](double t) { return std::exp(-t); });
  return s + c.sum() + (a * b).max();
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 1.4, -0.2}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return model(x, n); };
    fz_check("dx", dx[i], fz_fd(f, x[i]), 1e-6);
  }
  return fz_finish();
}
