// OPT: O0 O1 O2 O3
// holders40: piecewise-linear interpolation over the knots of an `enzyme_const`
// `std::set<double>` at -O0: `upper_bound` of the active abscissa finds the interval, the
// knots on either side are read through the iterator and `std::prev` of it (pointers
// computed from the constant set, their shadows the primal itself under runtime
// activity), `find` of a knot that is present and one that is absent, and the set's
// `begin()` / `rbegin()` read through `operator*`. The values at the knots are an active
// array. Oracles: the analytic slope (the interval's linear interpolant), central
// differences, forward . v against the gradient, the set unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <iterator>
#include <set>

using Knots = std::set<double>;

// y(t) on the knots: linear between the two knots around t (clamped to the ends).
static double interp(const Knots &k, const double *y, double t) {
  auto hi = k.upper_bound(t);
  if (hi == k.begin()) return y[0];
  if (hi == k.end()) return y[k.size() - 1];
  auto lo = std::prev(hi);
  long j = std::distance(k.begin(), lo);
  double a = (t - *lo) / (*hi - *lo);
  return (1 - a) * y[j] + a * y[j + 1];
}

double loss(const double *y, const Knots &k, const double *t, int m) {
  double s = 0;
  for (int i = 0; i < m; i++) {
    double v = interp(k, y, t[i]);
    s += v * v;
  }
  // A knot present and one absent; the first and the last knot.
  auto hit = k.find(0.5);
  if (hit != k.end()) s += *hit * y[1];
  if (k.find(0.55) == k.end()) s += 0.25 * y[2];
  s += *k.begin() * y[0] + *k.rbegin() * y[3];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4, m = 5;
  Knots k = {0.0, 0.5, 1.25, 2.0};
  const Knots k0 = k;
  double knots[n] = {0.0, 0.5, 1.25, 2.0};
  double y[n] = {0.3, -1.1, 0.8, 1.6}, dy[n] = {0}, fd[n];
  double t[m] = {0.2, 0.7, 1.0, 1.9, 2.5};  // the last one clamps to y[3]
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, y, dy, enzyme_const, &k, enzyme_const, t,
                          enzyme_const, m);
  fz_check("enzyme_const set unchanged", k == k0 ? 1 : 0, 1, 0);
  // Analytic: d/dy_j of sum_i v_i^2 is 2 v_i times the interpolation weight of y_j.
  double want[n] = {0, 0.5, 0.25, 2.0};
  want[0] += 0 * 1;  // *k.begin() = 0
  for (int i = 0; i < m; i++) {
    int j = 0;
    while (j + 1 < n && knots[j + 1] <= t[i]) j++;
    if (j == n - 1) {
      want[n - 1] += 2 * y[n - 1];
      continue;
    }
    double a = (t[i] - knots[j]) / (knots[j + 1] - knots[j]);
    double v = (1 - a) * y[j] + a * y[j + 1];
    want[j] += 2 * v * (1 - a);
    want[j + 1] += 2 * v * a;
  }
  fz_check_arr("d/dy analytic", dy, want, n, 1e-12);
  fz_fd_grad_of([&] { return loss(y, k0, t, m); }, y, n, fd);
  fz_check_arr("d/dy finite differences", dy, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int j = 0; j < n; j++) dv += want[j] * v[j];
  double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, y, v, enzyme_const, &k,
                                       enzyme_const, t, enzyme_const, m);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const set unchanged (forward)", k == k0 ? 1 : 0, 1, 0);
  return fz_finish();
}
