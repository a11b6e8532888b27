// OPT: O0 O2
// cxx45 (a reproducer until map46 made it pass at -O0, -O2 and REF): pointers returned
// by functions given the active key they only compare. An entry of a table the user
// declared inactive, found by a `noinline`
// search three calls deep that compares the key by reference (`pick` -> `less_key`), and
// `lower_bound`, `upper_bound`, `find` of an inactive global `std::map<double, double>`
// given active keys: what they return points into the inactive tables whatever the key.
// Controls whose result does depend on the key: a reference to the larger of two active
// doubles (as `std::max` returns) and a heap box holding the key's square. Oracles: the
// analytic gradient, central differences, forward mode against the gradient, the tables
// unchanged.
#include "fz_cxx.h"
#include <map>

struct Entry {
  double key, val;
};
struct Table {
  Entry *e;
  int n;
};
static Table T;
static std::map<double, double> M = {{0.0, 1.0}, {0.5, 1.4}, {1.0, 2.1}, {2.0, 2.5}, {3.0, 4.0}};
void *__enzyme_inactive_global[] = {(void *)&T, (void *)&M};

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

// At x = 1.3, y = 0.8: 3 x + 2.1 y + 2.5 x^2 + 2.5 y + x^2 + y^2 x.
double loss(double x, double y) {
  const Entry *e = upper(x);  // {2, 3}
  double s = e->val * x;
  auto lo = M.lower_bound(y);  // 1.0 -> 2.1
  auto hi = M.upper_bound(x);  // 2.0 -> 2.5
  s += lo->second * y + (hi == M.end() ? 0.0 : hi->second) * x * x;
  s += M.find(e->key)->second * y;  // 2.0 -> 2.5
  s += larger(x, y) * larger(y, x);
  double *b = boxed(y);
  s += *b * x;
  delete b;
  return s;
}

struct G {
  double x, y;
};

int main() {
  static Entry E[4] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  T.e = E;
  T.n = 4;
  const std::map<double, double> M0 = M;
  double x = 1.3, y = 0.8;
  G g = __enzyme_autodiff<G>((void *)loss, x, y);
  fz_check("d/dx analytic", g.x, 3 + 7 * x + y * y, 1e-12);
  fz_check("d/dy analytic", g.y, 2.1 + 2.5 + 2 * x * y, 1e-12);
  fz_check("d/dx finite differences", g.x, fz_fd([&] { return loss(x, y); }, x), 1e-6);
  fz_check("d/dy finite differences", g.y, fz_fd([&] { return loss(x, y); }, y), 1e-6);
  double vx = 0.4, vy = -0.7;
  double tan = __enzyme_fwddiff<double>((void *)loss, x, vx, y, vy);
  fz_check("forward tangent = <gradient, direction>", tan, g.x * vx + g.y * vy, 1e-10);
  int same = M == M0;
  for (int i = 0; i < 4; i++) same &= E[i].key == i && E[i].val == i + 1;
  fz_check("inactive tables unchanged", same, 1, 0);
  return fz_finish();
}
