// OPT: O0
// map46: forward mode alone (no gradient in the module) on the searches of
// tests/cxx/503: `lower_bound`/`upper_bound` of an inactive global `std::map`, of one
// passed `enzyme_const`, and of a constant `std::set` of knots, given active keys. At -O0
// the session-26 binary computed wrong tangents here (7.035 for 1.13, 1.0375 for 0.125:
// the nodes were their own shadows, so the map's values were read as tangents; a module
// with `lower_bound` alone was refused instead). -O2 inlines the searches and passed.
// Oracles: central differences per direction, the analytic tangents, tables unchanged.
#include "fz_cxx.h"
#include <map>
#include <set>

extern int enzyme_const;

static std::map<double, double> M = {{0.0, 1.0}, {0.5, 1.4}, {1.0, 2.1}, {2.0, 2.5}, {3.0, 4.0}};
void *__enzyme_inactive_global[] = {(void *)&M};

// At x = 1.3, y = 0.8: 2.1 y + 2.5 x^2.
double f(double x, double y) {
  auto lo = M.lower_bound(y);
  auto hi = M.upper_bound(x);
  return lo->second * y + (hi == M.end() ? 0.0 : hi->second) * x * x;
}

// The knot interval around t, weighted: (t - a) * (b - t) with a <= t < b.
double hat(const std::set<double> &knots, const std::map<double, double> &m, double t) {
  auto hi = knots.upper_bound(t);
  double b = *hi, a = *std::prev(hi);
  return (t - a) * (b - t) * m.lower_bound(t)->second;
}

int main() {
  const std::map<double, double> M0 = M;
  const std::set<double> knots = {0.0, 0.75, 1.5, 2.25};
  const std::set<double> K0 = knots;
  double x = 1.3, y = 0.8, vx = 0.4, vy = -0.7;
  double t = __enzyme_fwddiff<double>((void *)f, x, vx, y, vy);
  fz_check("inactive map: tangent analytic", t, 5 * x * vx + 2.1 * vy, 1e-12);
  fz_check("inactive map: unchanged", M == M0, 1, 0);
  double fx = fz_fd([&] { return f(x, y); }, x), fy = fz_fd([&] { return f(x, y); }, y);
  fz_check("inactive map: finite differences", t, fx * vx + fy * vy, 1e-6);

  double s = 1.1;
  double th = __enzyme_fwddiff<double>((void *)hat, enzyme_const, &knots, enzyme_const, &M, s, 1.0);
  // s in [0.75, 1.5), m.lower_bound(1.1) -> 2.0 -> 2.5: d/ds = (a + b - 2 s) * 2.5
  fz_check("enzyme_const set and map: tangent analytic", th, (0.75 + 1.5 - 2 * s) * 2.5, 1e-12);
  fz_check("enzyme_const set and map: finite differences", th, fz_fd([&] { return hat(knots, M, s); }, s), 1e-6);
  fz_check("enzyme_const set and map: unchanged", knots == K0 && M == M0, 1, 0);
  return fz_finish();
}
