// OPT: O0 O2
// CFLAGS: -std=c++17
// `std::valarray` expressions whose closures hold an active scalar BY VALUE next to the
// address of an enzyme_const valarray (libstdc++'s `_BinBase1`/`_BinBase2` keep the
// scalar `{double k; const valarray &t}`, `pow(t, p)` keeps `{const valarray &t; double
// p}`), copied whole by the nested closures' constructors at -O0 (cxx37: such copies move
// the pointer bytes as their own shadows and the floats field by field). An amplitude and
// a decay rate fitted to constant data, weighted by a constant valarray.
// Oracle: the analytic gradient, central differences, forward mode along a direction
// against the reverse gradient, and the constant valarrays checked unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <valarray>

struct Series {
  std::valarray<double> t, y, w;
};

double fit(double amp, double rate, double p, const Series *s) {
  std::valarray<double> model = amp * std::exp(-rate * s->t) + std::pow(s->t, p) * 0.1;
  std::valarray<double> r = (model - s->y) * s->w;
  return 0.5 * (r * r).sum();
}

extern int enzyme_out, enzyme_dup, enzyme_const;
struct G3 {
  double da, dr, dp;
};

int main() {
  const int n = 7;
  Series s{std::valarray<double>(n), std::valarray<double>(n), std::valarray<double>(n)};
  for (int i = 0; i < n; i++) {
    s.t[i] = 0.3 + 0.4 * i;
    s.y[i] = 1.7 * std::exp(-0.6 * s.t[i]) + 0.02 * (i % 2);
    s.w[i] = 1.0 + 0.05 * i;
  }
  const Series before = s;
  double amp = 1.5, rate = 0.5, p = 1.3;
  G3 g = __enzyme_autodiff<G3>((void *)fit, enzyme_out, amp, enzyme_out, rate, enzyme_out, p,
                               enzyme_const, &s);
  for (int i = 0; i < n; i++) {
    fz_check("constant t unchanged", s.t[i], before.t[i], 0);
    fz_check("constant y unchanged", s.y[i], before.y[i], 0);
    fz_check("constant w unchanged", s.w[i], before.w[i], 0);
  }
  double ga = 0, gr = 0, gp = 0;
  for (int i = 0; i < n; i++) {
    double t = s.t[i], e = std::exp(-rate * t), tp = std::pow(t, p);
    double r = (amp * e + 0.1 * tp - s.y[i]) * s.w[i];
    ga += r * s.w[i] * e;
    gr += r * s.w[i] * (-amp * t * e);
    gp += r * s.w[i] * 0.1 * tp * std::log(t);
  }
  fz_check("d/damp analytic", g.da, ga, 1e-10);
  fz_check("d/drate analytic", g.dr, gr, 1e-10);
  fz_check("d/dp analytic", g.dp, gp, 1e-10);
  auto f = [&] { return fit(amp, rate, p, &s); };
  fz_check("d/damp finite differences", g.da, fz_fd(f, amp), 1e-6);
  fz_check("d/drate finite differences", g.dr, fz_fd(f, rate), 1e-6);
  fz_check("d/dp finite differences", g.dp, fz_fd(f, p), 1e-6);
  double v[3] = {0.4, -0.7, 0.25};
  double jv = __enzyme_fwddiff<double>((void *)fit, enzyme_dup, amp, v[0], enzyme_dup, rate,
                                       v[1], enzyme_dup, p, v[2], enzyme_const, &s);
  fz_check("forward J.v == <grad, v>", jv, g.da * v[0] + g.dr * v[1] + g.dp * v[2], 1e-10);
  for (int i = 0; i < n; i++) fz_check("constant y unchanged (forward)", s.y[i], before.y[i], 0);
  return fz_finish();
}
