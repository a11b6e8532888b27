// OPT: O0 O2
// CFLAGS: -std=c++17
// `std::lower_bound`, `std::upper_bound` and `std::equal_range` on `std::vector<double>`
// (and a static constant array) inside the differentiated function (cxx26). At -O0 none is inlined and clang keeps the
// iterators in stack slots handed to the library's helpers (`std::advance`,
// `std::distance`, `__iterator_category`): the slots holding iterators into the
// `enzyme_const` knot vector and the static marks must stay constant (no shadow), those holding iterators into the
// active sorted copy of `x` must keep theirs. Piecewise-linear interpolation of active
// values `v` at an active query `q` between constant knots, a count of constant
// duplicates by `equal_range` weighting an active value, and `lower_bound` into the
// sorted active vector picking the element the next sum reads. Oracles: finite
// differences, the analytic derivative, forward vs reverse.
#include "fz_cxx.h"
#include <algorithm>
#include <vector>

#define N 6

static const double KNOTS[N] = {0.0, 0.5, 1.0, 1.5, 2.0, 2.5};

double interp(const std::vector<double> &knots, const double *v, const double *x, double q) {
  std::vector<double> vals(v, v + N);
  // j with knots[j] <= q < knots[j+1]
  auto hi = std::upper_bound(knots.begin(), knots.end(), q);
  int j = int(hi - knots.begin()) - 1;
  double w = (q - knots[j]) / (knots[j + 1] - knots[j]);
  double r = (1 - w) * vals[j] + w * vals[j + 1];
  // lower_bound of the same query: the first knot >= q (j + 1 here)
  auto lo = std::lower_bound(knots.begin(), knots.end(), q);
  r += 0.25 * q * *lo;
  // equal_range of a constant value with duplicates: its count weights vals[0]
  static const double marks[N] = {0.5, 1.0, 1.0, 1.0, 2.0, 3.0};
  auto eq = std::equal_range(marks, marks + N, 1.0);
  r += double(eq.second - eq.first) * vals[0];
  // searches in an active vector: its sorted copy, and the element found read back
  std::vector<double> xs(x, x + N);
  std::sort(xs.begin(), xs.end());
  auto at = std::lower_bound(xs.begin(), xs.end(), q);
  r += 0.5 * *at * *at;
  auto rng = std::equal_range(xs.begin(), xs.end(), xs[2]);
  r += 0.3 * *rng.first * q;
  return r;
}

int main() {
  double v[N] = {0.3, -1.2, 0.75, 1.6, -0.4, 0.9};
  double x[N] = {1.9, -0.7, 0.4, 2.6, 1.1, -1.5};
  double q = 1.23;
  const std::vector<double> knots(KNOTS, KNOTS + N);
  double dv[N] = {0}, dx[N] = {0};
  double dq = __enzyme_autodiff<double>((void *)interp, enzyme_const, &knots, enzyme_dup, v, dv, enzyme_dup, x, dx, q);
  // Analytic: q = 1.23 lies in [1.0, 1.5), j = 2, lower_bound -> knots[3] = 1.5;
  // equal_range(1.0) counts 3; sorted x = {-1.5, -0.7, 0.4, 1.1, 1.9, 2.6}: the first
  // element >= q is 1.9 = x[0]; xs[2] = 0.4 = x[2].
  double w = (q - 1.0) / 0.5;
  double wv[N] = {0}, wx[N] = {0};
  wv[2] += 1 - w;
  wv[3] += w;
  wv[0] += 3;
  wx[0] += x[0];
  wx[2] += 0.3 * q;
  double wq = (v[3] - v[2]) / 0.5 + 0.25 * 1.5 + 0.3 * x[2];
  fz_check_arr("d/dv analytic", dv, wv, N, 1e-12);
  fz_check_arr("d/dx analytic", dx, wx, N, 1e-12);
  fz_check("d/dq analytic", dq, wq, 1e-12);
  double fv[N], fx[N];
  fz_fd_grad_of([&] { return interp(knots, v, x, q); }, v, N, fv);
  fz_fd_grad_of([&] { return interp(knots, v, x, q); }, x, N, fx);
  fz_check_arr("d/dv finite differences", dv, fv, N, 1e-6);
  fz_check_arr("d/dx finite differences", dx, fx, N, 1e-6);
  fz_check("d/dq finite differences", dq, fz_fd([&] { return interp(knots, v, x, q); }, q), 1e-6);
  double tv[N], tx[N], tq = 0.7, dot = tq * dq;
  for (int i = 0; i < N; i++) tv[i] = 0.1 * i - 0.2, tx[i] = 0.3 - 0.05 * i, dot += tv[i] * dv[i] + tx[i] * dx[i];
  double jt = __enzyme_fwddiff<double>((void *)interp, enzyme_const, &knots, enzyme_dup, v, tv, enzyme_dup, x, tx, q, tq);
  fz_check("forward . t vs reverse", jt, dot, 1e-11);
  return fz_finish();
}
