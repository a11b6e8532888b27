// OPT: O0 O1 O2 O3
// probe42 (fixed at -O1..-O3): ownership inside the differentiated function: records
// `{std::array<double, 3>, double}` pushed into a `std::unique_ptr<std::vector<Pt>>`,
// which is moved into a `std::shared_ptr` and aliased, pairs passed by value, CRTP
// areas, a `constexpr` polynomial, a `std::tuple` of statistics returned and unpacked,
// `std::optional<double>` results.
// Before: cannot-deduce-type at -O1..-O3 at the memmove of the vector's reallocation
// (filetests/probe42_pointer_distance_exact_element). Oracles: central differences,
// forward = reverse.
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>
#include "fz_cxx.h"

struct Pt { std::array<double, 3> p; double w; };
static double energy(Pt a, Pt b) {  // by value
  double d2 = 0;
  for (int k = 0; k < 3; k++) d2 += (a.p[k] - b.p[k]) * (a.p[k] - b.p[k]);
  return a.w * b.w / std::sqrt(d2 + 0.1);
}
template <class D> struct Shape {
  double area(double s) const { return static_cast<const D *>(this)->area_impl(s); }
};
struct Sq : Shape<Sq> { double area_impl(double s) const { return s * s; } };
struct Circ : Shape<Circ> { double area_impl(double s) const { return M_PI * s * s; } };
template <class D> double total(const Shape<D> &sh, double s) { return sh.area(s); }
constexpr double cpoly(double x) { return 1 + x * (0.5 + x * (1.0 / 6)); }
static std::tuple<double, double, int> stats(const std::vector<double> &v) {
  double m = 0, q = 0;
  for (double e : v) m += e;
  m /= v.size();
  for (double e : v) q += (e - m) * (e - m);
  return {m, q / v.size(), (int)v.size()};
}
static std::optional<double> safe_inv(double x) {
  if (std::fabs(x) < 1e-3) return std::nullopt;
  return 1.0 / x;
}

double model(const double *x, int n) {
  auto owner = std::make_unique<std::vector<Pt>>();
  for (int i = 0; i + 3 < n; i += 2) owner->push_back(Pt{{x[i], x[i + 1], x[i + 2]}, 1.0 + 0.1 * i});
  std::shared_ptr<std::vector<Pt>> sh(std::move(owner));
  auto alias = sh;
  double e = 0;
  for (size_t i = 0; i < sh->size(); i++)
    for (size_t j = i + 1; j < alias->size(); j++) e += energy((*sh)[i], (*alias)[j]);
  e += total(Sq{}, x[0]) + total(Circ{}, x[1]) + cpoly(x[2]);
  auto [m, var, cnt] = stats(std::vector<double>(x, x + n));
  e += m * var * cnt;
  for (int i = 0; i < n; i++)
    if (auto inv = safe_inv(x[i])) e += *inv * x[0];
  return e;
}

int main() {
  const int n = 8;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5, -0.9, 0.25}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  auto L = [&] { return model(x, n); };
  for (int i = 0; i < n; i++) fz_check("owners", dx[i], fz_fd(L, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    fz_check("fwd owners", __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, e, enzyme_const, n), dx[i], 1e-10);
  }
  return fz_finish();
}
