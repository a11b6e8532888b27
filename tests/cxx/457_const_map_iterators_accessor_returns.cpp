// OPT: O0 O1 O2 O3
// holders40: lookups of `enzyme_const` weights in a `std::map<int, double>` through
// iterators at -O0, where libstdc++'s accessors are calls: `find` and `lower_bound`
// (their result is `end()` or a node read back from an iterator slot: a pointer whose
// shadow is the primal itself, checked by the caller), `std::prev` of the bound, an
// explicit `begin()`..`end()` walk with `it->first` / `it->second`, an iterator kept in
// a struct beside the active accumulator, and a helper returning `const double *` into
// the map (a callee computing its pointer result from the constant argument). Oracles:
// the analytic gradient, central differences, forward . v against the gradient, the map
// unchanged after both calls.
#include "fz_cxx.h"
#include <cmath>
#include <iterator>
#include <map>

using Weights = std::map<int, double>;

// A pointer into the constant map, or to a fallback the caller owns.
static const double *weight_of(const Weights &w, int k, const double *fallback) {
  auto it = w.find(k);
  return it == w.end() ? fallback : &it->second;
}

struct Cursor {
  Weights::const_iterator it;
  double acc;
};

double energy(const double *x, const Weights &w, int n) {
  double one = 1.0;
  double s = 0;
  for (int i = 0; i < n; i++) s += *weight_of(w, i, &one) * x[i] * x[i];
  // The last key not above 3: the node before `upper_bound`'s.
  auto ub = w.upper_bound(3);
  auto below = std::prev(ub);  // key 3
  s += below->second * std::sin(x[1]);
  Cursor c{w.begin(), 0.0};
  for (; c.it != w.end(); ++c.it) c.acc += c.it->second * x[c.it->first % n];
  auto lb = w.lower_bound(5);  // key 6
  if (lb != w.end()) s += lb->second * x[2] * x[3];
  return s + c.acc;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  Weights w;
  w[0] = 0.5;
  w[2] = -1.25;
  w[3] = 2.0;
  w[6] = 0.75;
  w[9] = 1.5;  // 9 % 4 = 1
  const Weights w0 = w;
  double x[n] = {0.4, -0.7, 1.1, 0.3}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, dx, enzyme_const, &w, enzyme_const, n);
  fz_check("enzyme_const map unchanged", w == w0 ? 1 : 0, 1, 0);
  // d/dx_i of sum_i w_i x_i^2 (w_1 = 1 fallback), 2 sin(x1), sum over keys, 0.75 x2 x3.
  double want[n] = {2 * 0.5 * x[0] + 0.5,
                    2 * 1.0 * x[1] + 2.0 * std::cos(x[1]) + 1.5,
                    2 * -1.25 * x[2] - 1.25 + 0.75 * x[3] + 0.75,
                    2 * 2.0 * x[3] + 2.0 + 0.75 * x[2]};
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return energy(x, w0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv =
      __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, v, enzyme_const, &w, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const map unchanged (forward)", w == w0 ? 1 : 0, 1, 0);
  return fz_finish();
}
