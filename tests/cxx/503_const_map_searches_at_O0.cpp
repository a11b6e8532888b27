// OPT: O0
// map46: searches of constant `std::map`s given active keys, at -O0 where libstdc++'s
// iterators live in stack slots. `_M_lower_bound` hands the node it found to the
// `_Rb_tree_iterator` constructor, whose derivative stores it into the shadowed iterator
// slot as its own shadow (runtime activity); nobody above checked the pointer returned
// from there, so `m.lower_bound(y)->second * y` added its adjoint into the constant map
// (the gradient right, the map changed; forward mode read the map's values as tangents),
// for a map declared `__enzyme_inactive_global` and for one passed `enzyme_const`. And
// `M.find(K[0])` of an inactive map given an inactive key crashed (its iterator slot's
// shadow held null). `loss` is tests/cxx/518 without its `find` line: a table entry found
// by a `noinline` search three calls deep (`upper` -> `search` -> `pick`), the
// lower/upper bounds of the inactive map, and controls whose result depends on the key.
// Oracles (at -O0 only: tests/cxx/518 covers -O2): analytic gradients, central
// differences, forward tangents against <gradient, direction>, and every table unchanged
// after each derivative.
#include "fz_cxx.h"
#include <map>

extern int enzyme_const;

struct Entry {
  double key, val;
};
struct Table {
  Entry *e;
  int n;
};
static Table T;
static std::map<double, double> M = {{0.0, 1.0}, {0.5, 1.4}, {1.0, 2.1}, {2.0, 2.5}, {3.0, 4.0}};
static double K[2] = {2.0, 1.0};
void *__enzyme_inactive_global[] = {(void *)&T, (void *)&M, (void *)K};

__attribute__((noinline)) static bool less_key(const double &a, const double &b) { return a < b; }
__attribute__((noinline)) static const Entry *pick(const Entry *e, const double &key, const Entry *hit) {
  return less_key(key, e->key) ? e : hit;
}
__attribute__((noinline)) static const Entry *search(const Entry *b, int n, const double &key) {
  const Entry *hit = b + n - 1;
  for (int i = n - 1; i >= 0; i--) hit = pick(b + i, key, hit);
  return hit;
}
__attribute__((noinline)) static const Entry *upper(const double &key) { return search(T.e, T.n, key); }
__attribute__((noinline)) static const double &larger(const double &a, const double &b) { return a < b ? b : a; }
__attribute__((noinline)) static double *boxed(const double &k) { return new double(k * k); }

// At x = 1.3, y = 0.8: 3 x + 2.1 y + 2.5 x^2 + x^2 + y^2 x.
double loss(double x, double y) {
  const Entry *e = upper(x);  // {2, 3}
  double s = e->val * x;
  auto lo = M.lower_bound(y);  // 1.0 -> 2.1
  auto hi = M.upper_bound(x);  // 2.0 -> 2.5
  s += lo->second * y + (hi == M.end() ? 0.0 : hi->second) * x * x;
  s += larger(x, y) * larger(y, x);
  double *b = boxed(y);
  s += *b * x;
  delete b;
  return s;
}

// The map passed enzyme_const. At y = 0.8: 2.1 y + 2.5 y^2.
double by_param(const std::map<double, double> &m, double y) {
  return m.lower_bound(y)->second * y + m.upper_bound(1.5 * y)->second * y * y;
}

// Inactive map, inactive key: 2.5 y.
double by_table_key(double y) { return M.find(K[0])->second * y; }

struct G {
  double x, y;
};

static int unchanged(const std::map<double, double> &M0) {
  int same = M == M0 && K[0] == 2.0 && K[1] == 1.0;
  for (int i = 0; i < 4; i++) same &= T.e[i].key == i && T.e[i].val == i + 1;
  return same;
}

int main() {
  static Entry E[4] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  T.e = E;
  T.n = 4;
  const std::map<double, double> M0 = M;
  double x = 1.3, y = 0.8, vx = 0.4, vy = -0.7;

  // Forward first: a tangent must not read the map's values.
  double tan = __enzyme_fwddiff<double>((void *)loss, x, vx, y, vy);
  fz_check("loss: forward before any gradient, tables unchanged", unchanged(M0), 1, 0);
  G g = __enzyme_autodiff<G>((void *)loss, x, y);
  fz_check("loss: d/dx analytic", g.x, 3 + 7 * x + y * y, 1e-12);
  fz_check("loss: d/dy analytic", g.y, 2.1 + 2 * x * y, 1e-12);
  fz_check("loss: tables unchanged", unchanged(M0), 1, 0);
  fz_check("loss: d/dx finite differences", g.x, fz_fd([&] { return loss(x, y); }, x), 1e-6);
  fz_check("loss: d/dy finite differences", g.y, fz_fd([&] { return loss(x, y); }, y), 1e-6);
  fz_check("loss: forward tangent = <gradient, direction>", tan, g.x * vx + g.y * vy, 1e-10);

  double t1 = __enzyme_fwddiff<double>((void *)by_param, enzyme_const, &M, y, 1.0);
  double g1 = __enzyme_autodiff<double>((void *)by_param, enzyme_const, &M, y);
  fz_check("enzyme_const map: d/dy analytic", g1, 2.1 + 5 * y, 1e-12);
  fz_check("enzyme_const map: forward tangent", t1, g1, 1e-12);
  fz_check("enzyme_const map: unchanged", unchanged(M0), 1, 0);
  fz_check("enzyme_const map: finite differences", g1, fz_fd([&] { return by_param(M, y); }, y), 1e-6);

  double t2 = __enzyme_fwddiff<double>((void *)by_table_key, y, 1.0);
  double g2 = __enzyme_autodiff<double>((void *)by_table_key, y);
  fz_check("inactive key: d/dy analytic", g2, 2.5, 1e-12);
  fz_check("inactive key: forward tangent", t2, 2.5, 1e-12);
  fz_check("inactive key: tables unchanged", unchanged(M0), 1, 0);
  return fz_finish();
}
