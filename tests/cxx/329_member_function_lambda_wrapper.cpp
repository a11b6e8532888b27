// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Differentiating a class's member function the ways users wrap it: a captureless
// trampoline taking the object by pointer (`enzyme_dup` object: gradient with respect to
// its data members), a lambda capturing the object by reference passed to
// `enzyme::autodiff` (differentiated through the callable wrapper, object constant) and
// with `enzyme::Duplicated` of the object (a member function template reached through a
// lambda that copies the object is tests/cxx/331). Oracle: analytic gradients of a small
// least-squares model.
#include "fz_cxx.h"
#include <cmath>
#include <enzyme/enzyme>
#include <vector>

struct LineFit {
  std::vector<double> xs, ys;
  double slope = 0, icpt = 0;
  double loss(double s, double b) const {
    double l = 0;
    for (size_t i = 0; i < xs.size(); i++) {
      double r = s * xs[i] + b - ys[i];
      l += r * r;
    }
    return 0.5 * l;
  }
  double own_loss() const { return loss(slope, icpt) + 0.1 * slope * slope; }
  template <typename F> double mapped(F f) const {
    double s = 0;
    for (double y : ys) s += f(y * slope + icpt);
    return s;
  }
};

static double trampoline(const LineFit *m) { return m->own_loss(); }

int main() {
  LineFit m;
  m.xs = {0.0, 0.5, 1.0, 1.5, 2.0};
  m.ys = {0.9, 1.8, 3.1, 3.9, 5.2};
  m.slope = 1.7;
  m.icpt = 0.6;
  double ss = 0, sb = 0;  // analytic: dL/ds = sum r x, dL/db = sum r
  for (size_t i = 0; i < m.xs.size(); i++) {
    double r = m.slope * m.xs[i] + m.icpt - m.ys[i];
    ss += r * m.xs[i];
    sb += r;
  }

  // 1. trampoline, object duplicated: d/d(slope), d/d(icpt) land in the shadow object.
  LineFit dm;
  dm.xs.assign(m.xs.size(), 0.0);
  dm.ys.assign(m.ys.size(), 0.0);
  __enzyme_autodiff<void>((void *)trampoline, enzyme_dup, &m, &dm);
  fz_check("trampoline d/dslope", dm.slope, ss + 0.2 * m.slope, 1e-12);
  fz_check("trampoline d/dicpt", dm.icpt, sb, 1e-12);
  double wantx[5];
  for (size_t i = 0; i < 5; i++) wantx[i] = (m.slope * m.xs[i] + m.icpt - m.ys[i]) * m.slope;
  fz_check_arr("trampoline d/dxs", dm.xs.data(), wantx, 5, 1e-12);

  // 2. lambda capturing the object by reference, parameters Active.
  auto f = [&m](double s, double b) { return m.loss(s, b); };
  auto r = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active<double>{m.slope},
                                             enzyme::Active<double>{m.icpt});
  fz_check("lambda d/ds", enzyme::get<0>(enzyme::get<0>(r)), ss, 1e-12);
  fz_check("lambda d/db", enzyme::get<1>(enzyme::get<0>(r)), sb, 1e-12);

  // 3. enzyme::autodiff of a function taking the object by pointer, Duplicated.
  LineFit dm2;
  dm2.xs.assign(5, 0.0);
  dm2.ys.assign(5, 0.0);
  enzyme::autodiff<enzyme::Reverse>(trampoline, enzyme::Duplicated<const LineFit *>{&m, &dm2});
  fz_check("Duplicated d/dslope", dm2.slope, ss + 0.2 * m.slope, 1e-12);

  return fz_finish();
}
