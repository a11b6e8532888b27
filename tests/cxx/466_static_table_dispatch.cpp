// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Type erasure by hand, as C++ libraries write it where they avoid `virtual`: each
// object holds a pointer to a constant table of functions (`LawVT`: the rate and a link
// to the table of the law it refines), objects are copied by a user copy constructor
// (member by member, as flang -O0 copies a descriptor field by field), and the rate is
// evaluated through the table, walking the chain of refined laws. The laws are passed
// enzyme_const, so the table pointer copied into the shadowed local had no shadow: its
// shadow was null, and the derivative of `eval`, given that null as the shadow of the
// table it reads `base` through, crashed at -O0 (a segmentation fault; f31). A constant
// table is its own shadow now (runtime activity: the pointers read through it are the
// primal's). Reverse mode vs central finite differences and the analytic gradient,
// forward mode by the dot-product identity; the laws are unchanged.
#include "fz_cxx.h"
#include <cmath>

struct Law;
struct LawVT {
  double (*rate)(const Law &, double);
  double (*slope)(const Law &, double);  // the analytic derivative, for the oracle only
  const LawVT *base;
};
struct Law {
  const LawVT *vt;
  double c, p;
  Law(const LawVT *v, double c_, double p_) : vt(v), c(c_), p(p_) {}
  Law(const Law &o) : vt(o.vt), c(o.c), p(o.p) {}
};

static double power(const Law &l, double x) { return l.c * std::pow(x, l.p); }
static double power_slope(const Law &l, double x) { return l.c * l.p * std::pow(x, l.p - 1); }
static double decay(const Law &l, double x) { return l.c * std::exp(-l.p * x); }
static double decay_slope(const Law &l, double x) { return -l.p * l.c * std::exp(-l.p * x); }
static const LawVT POWER = {power, power_slope, nullptr};
static const LawVT DECAY = {decay, decay_slope, &POWER};

// The rate of `l` at x plus half of each law it refines.
__attribute__((noinline)) static double eval(const LawVT &t, const Law &l, double x) {
  double y = t.rate(l, x);
  for (const LawVT *b = t.base; b; b = b->base) y += 0.5 * b->rate(l, x);
  return y;
}

__attribute__((noinline)) double total(const Law *laws, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    Law l = laws[i];
    s += (1 + 0.1 * i) * eval(*l.vt, l, x[i]);
  }
  return s;
}

int main() {
  const int n = 5;
  Law laws[n] = {Law(&POWER, 2.0, 1.5), Law(&DECAY, 1.2, 0.9), Law(&POWER, 3.0, 2.5),
                 Law(&DECAY, 0.8, 1.1), Law(&DECAY, 1.7, 0.4)};
  double x[n], dx[n], fd[n], an[n], v[n];
  fz_seed(31);
  fz_fill(x, n, 0.6, 1.6);
  fz_fill(v, n, -1.0, 1.0);
  fz_zero(dx, n);
  __enzyme_autodiff<void>((void *)total, enzyme_const, laws, enzyme_dup, x, dx, enzyme_const, n);
  auto f = [&] { return total(laws, x, n); };
  fz_fd_grad_of(f, x, n, fd);
  for (int i = 0; i < n; i++) {
    double d = laws[i].vt->slope(laws[i], x[i]);
    for (const LawVT *b = laws[i].vt->base; b; b = b->base) d += 0.5 * b->slope(laws[i], x[i]);
    an[i] = (1 + 0.1 * i) * d;
  }
  fz_check_arr("dx vs fd", dx, fd, n, 1e-6);
  fz_check_arr("dx vs analytic", dx, an, n, 1e-12);
  double t = __enzyme_fwddiff<double>((void *)total, enzyme_const, laws, enzyme_dup, x, v,
                                      enzyme_const, n);
  double w = 0;
  for (int i = 0; i < n; i++) w += dx[i] * v[i];
  fz_check("forward . v = reverse . v", t, w, 1e-12);
  fz_check("laws unchanged", laws[3].c + laws[3].p + laws[4].c, 0.8 + 1.1 + 1.7, 0);
  return fz_finish();
}
