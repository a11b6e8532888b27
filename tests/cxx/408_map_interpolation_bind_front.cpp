// OPT: O0 O2
// CFLAGS: -std=c++20
// IGNORE-REF: mismatched activity in `std::__invoke_impl` (unoptimized, `std::bind_front`'s call of `interp` through the stored function pointer): "a pointer that is constant or differentiable depending on the run is passed to an indirect callee; run-time activity checks cannot follow a call into a function without IR"; a clear compile-time error. -O0 and -O2 pass
// A lookup table as users keep one: `std::map<double, double>` from constant abscissae to
// active ordinates (the parameters), evaluated by piecewise-linear interpolation with
// `upper_bound` and `std::prev`, clamped at both ends (`begin()`, `rbegin()`); the evaluator
// is bound to the table with `std::bind_front` (C++20) and applied to constant query points
// with `std::transform` into a vector, then summed with weights; one query point is itself
// active (p[n]), so the slope of the segment it lands in is part of the gradient.
// Oracle: the analytic gradient (hat-function weights), central differences,
// forward/reverse dot products.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <vector>

static double interp(const std::map<double, double> &t, double x) {
  if (x <= t.begin()->first) return t.begin()->second;
  if (x >= t.rbegin()->first) return t.rbegin()->second;
  auto hi = t.upper_bound(x);
  auto lo = std::prev(hi);
  double s = (x - lo->first) / (hi->first - lo->first);
  return (1 - s) * lo->second + s * hi->second;
}

double model(const double *p, const double *knots, const double *q, int n, int m) {
  std::map<double, double> table;
  for (int i = 0; i < n; i++) table.emplace(knots[i], p[i]);
  auto f = std::bind_front(interp, std::cref(table));
  std::vector<double> y(m);
  std::transform(q, q + m, y.begin(), f);
  double s = 0;
  for (int j = 0; j < m; j++) s += (j + 1) * y[j] * y[j];
  return s + f(p[n]);
}

// Hat-function weights of x on the knots (sorted), for the analytic gradient.
static void hat(const double *k, int n, double x, double *w, double *slope_of) {
  for (int i = 0; i < n; i++) w[i] = 0;
  *slope_of = -1;
  if (x <= k[0]) { w[0] = 1; return; }
  if (x >= k[n - 1]) { w[n - 1] = 1; return; }
  int i = 0;
  while (!(k[i] <= x && x < k[i + 1])) i++;
  double s = (x - k[i]) / (k[i + 1] - k[i]);
  w[i] = 1 - s;
  w[i + 1] = s;
  *slope_of = i;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6, m = 5;
  double knots[n] = {-1.0, -0.4, 0.1, 0.5, 1.2, 2.0};  // written sorted; the map sorts anyway
  double q[m] = {-1.5, -0.7, 0.3, 0.9, 2.4};
  double p[n + 1] = {0.3, -0.5, 0.8, 1.1, -0.2, 0.6, 0.75}, dp[n + 1] = {0}, fd[n + 1];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, knots, enzyme_const,
                          q, enzyme_const, n, enzyme_const, m);
  double want[n + 1] = {0}, w[n], seg;
  for (int j = 0; j < m; j++) {
    hat(knots, n, q[j], w, &seg);
    double y = 0;
    for (int i = 0; i < n; i++) y += w[i] * p[i];
    for (int i = 0; i < n; i++) want[i] += 2 * (j + 1) * y * w[i];
  }
  hat(knots, n, p[n], w, &seg);
  for (int i = 0; i < n; i++) want[i] += w[i];
  int i = int(seg);
  want[n] = (p[i + 1] - p[i]) / (knots[i + 1] - knots[i]);
  fz_check_arr("d/dp analytic", dp, want, n + 1, 1e-12);
  fz_fd_grad_of([&] { return model(p, knots, q, n, m); }, p, n + 1, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n + 1, 1e-6);
  double v[n + 1], dv = 0;
  for (int k = 0; k <= n; k++) v[k] = std::sin(1.0 + 2 * k);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, knots,
                                       enzyme_const, q, enzyme_const, n, enzyme_const, m);
  for (int k = 0; k <= n; k++) dv += dp[k] * v[k];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
