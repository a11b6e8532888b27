// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// boost::math numerics with active parameters (sweep22): `quadrature::gauss<double, 15>`
// and `gauss_kronrod<double, 21>` (fixed rule, no refinement: max_depth 0) of an
// integrand lambda capturing active parameters, `trapezoidal` on a periodic integrand
// (fixed level), and `tools::newton_raphson_iterate` solving an implicit equation whose
// root depends on the parameters. Oracles: the exact integrals' derivatives (the
// integrand is a polynomial times an exponential with closed-form moments), the
// implicit function theorem for the root, finite differences, forward vs reverse.
#include "fz_cxx.h"
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>

double integrals(double a, double b) {
  auto f = [=](double t) { return std::exp(a * t) * (1 + b * t * t); };
  double g = boost::math::quadrature::gauss<double, 15>::integrate(f, 0.0, 1.0);
  double err = 0;
  double gk = boost::math::quadrature::gauss_kronrod<double, 21>::integrate(
      [=](double t) { return std::sin(b * t) * t; }, 0.0, 2.0, 0, 0.0, &err);
  return g + 0.5 * gk;
}

double root_of(double c, double d) {
  // x^3 + c x - d = 0, starting from a guess; root x(c, d).
  auto fn = [=](double x) { return std::make_pair(x * x * x + c * x - d, 3 * x * x + c); };
  std::uintmax_t it = 50;
  double r = boost::math::tools::newton_raphson_iterate(fn, 1.0, 0.0, 10.0, 52, it);
  return r * r + std::sin(r);
}

int main() {
  double a = 0.7, b = 1.3;
  fz_grad2 g = __enzyme_autodiff<fz_grad2>((void *)integrals, a, b);
  {
    // int_0^1 e^{a t} t^k dt by repeated integration by parts; d/da of int e^{at}(1+bt^2)
    // = int t e^{at} (1 + b t^2); d/db = int t^2 e^{at}.
    auto mom = [&](int k) {
      // M_k = e^a / a - k / a M_{k-1}, M_0 = (e^a - 1) / a
      double m = (std::exp(a) - 1) / a;
      for (int j = 1; j <= k; j++) m = std::exp(a) / a - j / a * m;
      return m;
    };
    // int_0^2 sin(b t) t dt = (sin(2b) - 2b cos(2b)) / b^2; d/db = int t^2 cos(b t).
    double I2 = 0;
    {
      double B = b;
      auto F = [&](double bb) { return (std::sin(2 * bb) - 2 * bb * std::cos(2 * bb)) / (bb * bb); };
      I2 = fz_fd([&] { return F(B); }, B);
    }
    fz_check("d/da vs moments", g.d0, mom(1) + b * mom(3), 1e-10);
    fz_check("d/db vs moments + closed form", g.d1, mom(2) + 0.5 * I2, 1e-7);
    fz_check("d/da finite differences", g.d0, fz_fd([&] { return integrals(a, b); }, a), 1e-6);
    fz_check("d/db finite differences", g.d1, fz_fd([&] { return integrals(a, b); }, b), 1e-6);
  }
  double c = 0.8, d = 2.1;
  fz_grad2 r = __enzyme_autodiff<fz_grad2>((void *)root_of, c, d);
  {
    std::uintmax_t it = 50;
    double x = boost::math::tools::newton_raphson_iterate(
        [=](double x) { return std::make_pair(x * x * x + c * x - d, 3 * x * x + c); }, 1.0, 0.0,
        10.0, 52, it);
    double Fx = 3 * x * x + c, outer = 2 * x + std::cos(x);
    fz_check("root d/dc: implicit function theorem", r.d0, outer * (-x / Fx), 1e-9);
    fz_check("root d/dd: implicit function theorem", r.d1, outer * (1 / Fx), 1e-9);
    fz_check("root d/dc finite differences", r.d0, fz_fd([&] { return root_of(c, d); }, c), 1e-6);
  }
  double t = __enzyme_fwddiff<double>((void *)integrals, a, 0.4, b, -1.1);
  fz_check("forward . t vs reverse", t, 0.4 * g.d0 - 1.1 * g.d1, 1e-10);
  return fz_finish();
}
