// OPT: O0 O2
// CFLAGS: -std=c++17
// Regression (cxx32, silent at -O0 and --ad-before-opt): `a * data->t` for a valarray
// in an `enzyme_const` struct. Unoptimized, `operator*` returns the expression closure
// `{double a, const valarray *t}` by value; the closure's constructor keeps the constant
// valarray's address in memory that has a shadow, where runtime activity makes it its own
// shadow, but the callers never learned it (the valarray's layout was unknown to type
// analysis, and the pointer came back inside a returned struct), so the reverse sweep added
// `a`'s adjoint contributions into the constant input `t` itself: t grew by `a` per call,
// and every later derivative was wrong. Oracles: the analytic derivative, and the constant
// data unchanged after each differentiated call.
#include "fz_cxx.h"
#include <valarray>

struct Data {
  std::valarray<double> t, y, w;
};

double scaled_sum(double a, const Data *d) {
  std::valarray<double> m = a * d->t;
  return m.sum();
}

double scaled_squares(double a, const Data *d) {
  std::valarray<double> m = a * d->t;
  return (m * m).sum();
}

double weighted_residual(double a, const Data *d) {
  std::valarray<double> m = a * d->t;
  m *= d->w;
  std::valarray<double> r = m - d->y;
  return r.sum();
}

extern int enzyme_out, enzyme_const;

int main() {
  const int n = 5;
  Data data{std::valarray<double>(n), std::valarray<double>(n), std::valarray<double>(n)};
  double t0[n], y0[n], w0[n];
  for (int i = 0; i < n; i++) {
    t0[i] = data.t[i] = 0.5 + i;
    y0[i] = data.y[i] = 0.1 * i;
    w0[i] = data.w[i] = 1 + 0.2 * i;
  }
  double a = 0.7, st = 0, stt = 0, stw = 0;
  for (int i = 0; i < n; i++) {
    st += t0[i];
    stt += t0[i] * t0[i];
    stw += t0[i] * w0[i];
  }
  auto unchanged = [&](const char *what) {
    int same = 1;
    for (int i = 0; i < n; i++)
      same &= data.t[i] == t0[i] && data.y[i] == y0[i] && data.w[i] == w0[i];
    fz_check(what, same, 1, 0);
  };
  for (int rep = 0; rep < 2; rep++) {
    double g = __enzyme_autodiff<double>((void *)scaled_sum, enzyme_out, a, enzyme_const, &data);
    fz_check("d/da sum(a t) == sum(t)", g, st, 1e-12);
    unchanged("constant data unchanged after sum(a t)");
    g = __enzyme_autodiff<double>((void *)scaled_squares, enzyme_out, a, enzyme_const, &data);
    fz_check("d/da sum((a t)^2) == 2 a sum(t^2)", g, 2 * a * stt, 1e-12);
    unchanged("constant data unchanged after sum((a t)^2)");
    g = __enzyme_autodiff<double>((void *)weighted_residual, enzyme_out, a, enzyme_const, &data);
    fz_check("d/da sum(a t w - y) == sum(t w)", g, stw, 1e-12);
    unchanged("constant data unchanged after sum(a t w - y)");
  }
  return fz_finish();
}
