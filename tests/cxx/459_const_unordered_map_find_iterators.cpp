// OPT: O0 O1 O2 O3
// holders40: `enzyme_const` weights in a `std::unordered_map<int, double>` looked up at
// -O0 through iterators: `find` (hit and miss, the iterator kept in a local and compared
// with `end()`), `at`, `count`, the iterator stored in a struct beside an active pointer,
// and a helper returning `const double *` to the found weight or to a default the caller
// owns (a callee computing its pointer result from the constant map). Oracles: the
// analytic gradient, central differences, forward . v against the gradient, the map
// unchanged after both calls.
#include "fz_cxx.h"
#include <cmath>
#include <unordered_map>

using Table = std::unordered_map<int, double>;

static const double *lookup(const Table &t, int k, const double *dflt) {
  auto it = t.find(k);
  if (it == t.end()) return dflt;
  return &it->second;
}

struct Probe {
  Table::const_iterator it;
  const double *x;
};

double score(const double *x, const Table &t, int n) {
  const double dflt = 0.5;
  double s = 0;
  for (int i = 0; i < n; i++) s += *lookup(t, 10 * i, &dflt) * x[i] * x[i];
  Probe p{t.find(20), x};
  if (p.it != t.end()) s += p.it->second * std::exp(p.x[1]);
  if (t.count(30)) s += t.at(30) * x[0] * x[3];
  auto miss = t.find(7);
  s += (miss == t.end() ? 2.0 : miss->second) * x[2];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  Table t = {{0, 1.5}, {10, -0.75}, {20, 2.25}, {30, 0.4}};  // no key 7
  const Table t0 = t;
  double x[n] = {0.4, -0.7, 1.1, 0.3}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)score, enzyme_dup, x, dx, enzyme_const, &t, enzyme_const, n);
  fz_check("enzyme_const map unchanged", t == t0 ? 1 : 0, 1, 0);
  double want[n] = {2 * 1.5 * x[0] + 0.4 * x[3],
                    2 * -0.75 * x[1] + 2.25 * std::exp(x[1]),
                    2 * 2.25 * x[2] + 2.0,
                    2 * 0.4 * x[3] + 0.4 * x[0]};
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return score(x, t0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv =
      __enzyme_fwddiff<double>((void *)score, enzyme_dup, x, v, enzyme_const, &t, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const map unchanged (forward)", t == t0 ? 1 : 0, 1, 0);
  return fz_finish();
}
