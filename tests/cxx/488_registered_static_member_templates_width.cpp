// OPT: O0 O1 O2 O3
// probe41: C++ users' custom derivatives and template entry points: a derivative
// registered for a static member function (`Table::lookup`, whose body is a table
// interpolation with a deliberately wrong slope so only the rule can give the right
// numbers), called through an instance method inside a loop over a std::vector; the
// forward rule registered beside it; `__enzyme_fwddiff` and `__enzyme_autodiff` of a
// function template instantiation (`horner<double, 4>`); `enzyme_width 2` forward mode
// of a function returning a struct (two lanes, one call). The rules take no shadow for
// the constant table (with one, the pass says the argument has none here). Oracles: analytic.
#include <cmath>
#include <vector>
#include "fz_cxx.h"
extern int enzyme_width;

struct Table {
  double scale;
  // The "true" function is scale * x^3; the body returns a piecewise-linear fake.
  static double lookup(const Table *t, double x) { return t->scale * (x > 0 ? 2 * x : x); }
  double operator()(double x) const { return lookup(this, x); }
};
static int aug_calls, rev_calls, fwd_calls;
static double lookup_aug(const Table *t, double x) {
  aug_calls++;
  return t->scale * x * x * x;
}
static double lookup_rev(const Table *t, double x, double dret) {
  rev_calls++;
  return dret * 3 * t->scale * x * x;
}
static double lookup_fwd(const Table *t, double x, double dx) {
  fwd_calls++;
  return 3 * t->scale * x * x * dx;
}
void *__enzyme_register_gradient_lookup[] = {(void *)Table::lookup, (void *)lookup_aug, (void *)lookup_rev};
void *__enzyme_register_derivative_lookup[] = {(void *)Table::lookup, (void *)lookup_fwd};

double apply(const double *x, const std::vector<Table> *tabs, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (*tabs)[i % tabs->size()](x[i]) * (1 + 0.5 * i);
  return s;
}

template <typename T, int K>
T horner(T x, const T *c) {
  T s = 0;
  for (int k = K - 1; k >= 0; k--) s = s * x + c[k];
  return s;
}

struct Pair { double sum, prod; };
Pair stats(const double *x, int n) {
  Pair p{0, 1};
  for (int i = 0; i < n; i++) { p.sum += x[i] * x[i]; p.prod *= std::cos(x[i]); }
  return p;
}
struct Pair2 { Pair lane[2]; };

int main() {
  std::vector<Table> tabs{{1.5}, {-0.5}};
  double x[4] = {0.4, -0.7, 1.1, 0.25}, d[4] = {0};
  __enzyme_autodiff<void>((void *)apply, enzyme_dup, x, d, enzyme_const, &tabs, enzyme_const, 4);
  for (int i = 0; i < 4; i++)
    fz_check("registered rev", d[i], 3 * tabs[i % 2].scale * x[i] * x[i] * (1 + 0.5 * i), 1e-12);
  fz_check("reverse rule used", rev_calls >= 4, 1, 0);
  for (int i = 0; i < 4; i++) {
    double e[4] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff<double>((void *)apply, enzyme_dup, x, e, enzyme_const, &tabs, enzyme_const, 4);
    fz_check("registered fwd", t, d[i], 1e-12);
  }
  fz_check("forward rule used", fwd_calls >= 4, 1, 0);

  const double c[4] = {0.5, -1.0, 0.25, 2.0};
  double xv = 0.7;
  double want = c[1] + 2 * c[2] * xv + 3 * c[3] * xv * xv;
  double t = __enzyme_fwddiff<double>((void *)horner<double, 4>, xv, 1.0, enzyme_const, c);
  fz_check("template fwd", t, want, 1e-12);
  double r = __enzyme_autodiff<double>((void *)horner<double, 4>, xv, enzyme_const, c);
  fz_check("template rev", r, want, 1e-12);

  double y[3] = {0.3, -0.6, 0.9}, v0[3] = {1, 0, 0}, v1[3] = {0.5, 0.5, -1};
  Pair2 w = __enzyme_fwddiff<Pair2>((void *)stats, enzyme_width, 2, enzyme_dup, y, v0, v1, enzyme_const, 3);
  double pr = std::cos(y[0]) * std::cos(y[1]) * std::cos(y[2]);
  const double *vs[2] = {v0, v1};
  Pair got[2] = {w.lane[0], w.lane[1]};
  for (int l = 0; l < 2; l++) {
    double ds = 0, dp = 0;
    for (int i = 0; i < 3; i++) { ds += 2 * y[i] * vs[l][i]; dp += -std::tan(y[i]) * pr * vs[l][i]; }
    fz_check("width2 sum", got[l].sum, ds, 1e-12);
    fz_check("width2 prod", got[l].prod, dp, 1e-12);
  }
  return fz_finish();
}
