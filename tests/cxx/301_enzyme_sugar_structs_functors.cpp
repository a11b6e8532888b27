// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// <enzyme/enzyme> as its users write it: Forward mode of a function taking a struct by
// value with enzyme::Duplicated{value, tangent} (and enzyme::Const of a struct by value
// in reverse mode: both now go through a wrapper taking the struct by reference), Reverse with several enzyme::Active
// scalars and an enzyme::Duplicated<double *> (std::vector data), ReverseWithPrimal,
// Forward with enzyme::Duplicated result (primal and tangent), a functor with state
// and a capturing lambda, enzyme::Const of a struct reference. Oracle: analytic.
#include "fz_cxx.h"
#include <enzyme/enzyme>
#include <vector>

struct pt {
  double x, y;
};

// not symmetric in x and y: a tangent paired with the wrong field shows (the struct is
// split into two double parameters by the ABI; <enzyme/enzyme> used to pair p.y with
// dp.x, a silently wrong tangent, and to mistake p.y for an active argument in reverse)
double area_scaled(pt p, double s) { return s * p.x + p.y * p.y; }

double weighted_norm(const double *v, int n, double a, double b) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (i % 2 ? a : b) * v[i] * v[i];
  return std::sqrt(s);
}

struct Spring {
  double k, rest;
  double operator()(double x) const { return 0.5 * k * (x - rest) * (x - rest); }
};

struct Cfg {
  double c0, c1;
};
double with_cfg(double x, const Cfg &c) { return c.c0 * std::exp(c.c1 * x); }

int main() {
  // forward with a struct by value and its tangent
  auto t = enzyme::autodiff<enzyme::Forward>(area_scaled, enzyme::Duplicated<pt>{pt{2, 3}, pt{0.5, -1}},
                                             enzyme::Const<double>{1.5});
  fz_check("forward struct by value", enzyme::get<0>(t), 1.5 * 0.5 + 2 * 3 * -1.0, 1e-14);

  // reverse: two active scalars and a duplicated vector
  std::vector<double> v{0.3, -1.2, 2.0, 0.7, 1.1}, dv(v.size(), 0.0);
  double a = 1.7, b = 0.4;
  auto r = enzyme::autodiff<enzyme::Reverse>(
      weighted_norm, enzyme::Duplicated<const double *>{v.data(), dv.data()},
      enzyme::Const<int>{(int)v.size()}, enzyme::Active<double>{a}, enzyme::Active<double>{b});
  double s = 0, sa = 0, sb = 0;
  for (size_t i = 0; i < v.size(); i++) {
    s += (i % 2 ? a : b) * v[i] * v[i];
    (i % 2 ? sa : sb) += v[i] * v[i];
  }
  double nrm = std::sqrt(s);
  fz_check("d/da", enzyme::get<0>(enzyme::get<0>(r)), sa / (2 * nrm), 1e-13);
  fz_check("d/db", enzyme::get<1>(enzyme::get<0>(r)), sb / (2 * nrm), 1e-13);
  for (size_t i = 0; i < v.size(); i++)
    fz_check("d/dv", dv[i], (i % 2 ? a : b) * v[i] / nrm, 1e-13);

  // reverse with the primal
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(area_scaled, enzyme::Const<pt>{pt{2, 3}},
                                                        enzyme::Active<double>{1.5});
  fz_check("primal", enzyme::get<1>(rp), 1.5 * 2 + 9.0, 1e-14);
  fz_check("d/ds", enzyme::get<0>(enzyme::get<0>(rp)), 2.0, 1e-14);

  // forward with the primal returned (Duplicated result)
  auto fp = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      with_cfg, enzyme::Duplicated<double>{0.3, 1.0}, enzyme::Const<const Cfg &>{Cfg{2.0, -0.5}});
  fz_check("forward primal", enzyme::get<0>(fp), 2.0 * std::exp(-0.15), 1e-14);
  fz_check("forward tangent", enzyme::get<1>(fp), -1.0 * std::exp(-0.15), 1e-14);

  // functor with state, and a capturing lambda
  Spring sp{4.0, 1.0};
  auto rs = enzyme::autodiff<enzyme::Reverse>(sp, enzyme::Active<double>{1.75});
  fz_check("functor d/dx", enzyme::get<0>(enzyme::get<0>(rs)), 4.0 * 0.75, 1e-14);
  double kk = 3.0;
  auto lam = [&kk](double x) { return kk * std::sin(x) * x; };
  auto rl = enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active<double>{0.6});
  fz_check("lambda d/dx", enzyme::get<0>(enzyme::get<0>(rl)),
           kk * (std::cos(0.6) * 0.6 + std::sin(0.6)), 1e-14);
  // a capturing lambda taking a struct by value, forward mode
  auto lp = [&kk](pt p, double s) { return kk * p.x * s + p.y * p.y * p.y; };
  auto tl = enzyme::autodiff<enzyme::Forward>(lp, enzyme::Duplicated<pt>{pt{1.5, -0.5}, pt{2.0, 1.0}},
                                              enzyme::Duplicated<double>{0.8, 0.25});
  fz_check("lambda, struct by value", enzyme::get<0>(tl),
           kk * (2.0 * 0.8 + 1.5 * 0.25) + 3 * 0.25 * 1.0, 1e-14);
  return fz_finish();
}
