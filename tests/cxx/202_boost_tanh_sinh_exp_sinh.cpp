// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE: at every level boost's exception wrappers (`wrapexcept<evaluation_error>`, `wrapexcept<rounding_error>` destructors, `refcount_ptr<error_info_container>::release`) make a virtual call no function in the module can be the target of ("cannot differentiate this call through a function pointer"), and at -O2 `exp_sinh_detail::extend_refinements` copies its abscissa rows with memcpy of unknown type (cannot-deduce-type); the `pthread_mutex_lock`/`unlock` of the refinement lock were a missing derivative before sweep23 and are inactive rows now
// Adaptive double-exponential quadrature of an active integrand (sweep23):
// `boost::math::quadrature::tanh_sinh` on [0, 1] of t^(a-1) (1 - t)^(b-1) e^{c t} (an
// endpoint-singular Beta-like integrand, the case tanh-sinh is for) and `exp_sinh` on
// [0, inf) of t e^{-a t^2} cos(b t) (decaying),
// with the active shape parameters captured by the lambdas. The refinement levels depend
// on the parameters only through comparisons (piecewise constant), so the gradient is
// the quadrature of the integrand's derivative. Oracles: the same quadratures of the
// analytic partial derivatives of each integrand, and (c = 0) the Beta function's
// derivative d/da B(a, b) = B(a, b) (psi(a) - psi(a + b)) from `std::beta` and a
// digamma series; central finite differences with a looser tolerance (the adaptive
// rule's error is below 1e-10 but its stopping level could move).
#include "fz_cxx.h"
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <cmath>

double beta_like(double a, double b, double c) {
  boost::math::quadrature::tanh_sinh<double> ts;
  auto f = [=](double t) { return std::pow(t, a - 1) * std::pow(1 - t, b - 1) * std::exp(c * t); };
  return ts.integrate(f, 0.0, 1.0);
}

double decaying(double a, double b) {
  boost::math::quadrature::exp_sinh<double> es;
  auto f = [=](double t) { return t * std::exp(-a * t * t) * std::cos(b * t); };
  return es.integrate(f, 0.0, std::numeric_limits<double>::infinity());
}

static double digamma(double x) {
  double r = 0;
  while (x < 6) { r -= 1 / x; x += 1; }
  double f = 1 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

int main() {
  double a = 1.6, b = 2.3, c = 0.4;
  fz_grad3 g = __enzyme_autodiff<fz_grad3>((void *)beta_like, a, b, c);
  {
    boost::math::quadrature::tanh_sinh<double> ts;
    auto base = [&](double t) { return std::pow(t, a - 1) * std::pow(1 - t, b - 1) * std::exp(c * t); };
    double wa = ts.integrate([&](double t) { return base(t) * std::log(t); }, 0.0, 1.0);
    double wb = ts.integrate([&](double t) { return base(t) * std::log1p(-t); }, 0.0, 1.0);
    double wc = ts.integrate([&](double t) { return base(t) * t; }, 0.0, 1.0);
    fz_check("tanh_sinh d/da: quadrature of d integrand/da", g.d0, wa, 1e-9);
    fz_check("tanh_sinh d/db", g.d1, wb, 1e-9);
    fz_check("tanh_sinh d/dc", g.d2, wc, 1e-9);
    double fa = fz_fd([&] { return beta_like(a, b, c); }, a);
    double fb = fz_fd([&] { return beta_like(a, b, c); }, b);
    double fc = fz_fd([&] { return beta_like(a, b, c); }, c);
    fz_check("tanh_sinh d/da FD", g.d0, fa, 1e-5);
    fz_check("tanh_sinh d/db FD", g.d1, fb, 1e-5);
    fz_check("tanh_sinh d/dc FD", g.d2, fc, 1e-5);
  }
  {
    double c0 = 0.0;
    fz_grad3 h = __enzyme_autodiff<fz_grad3>((void *)beta_like, a, b, c0);
    double B = std::beta(a, b);
    fz_check("c = 0: d/da = B (psi(a) - psi(a+b))", h.d0, B * (digamma(a) - digamma(a + b)), 1e-9);
    fz_check("c = 0: d/db = B (psi(b) - psi(a+b))", h.d1, B * (digamma(b) - digamma(a + b)), 1e-9);
  }
  fz_grad2 e = __enzyme_autodiff<fz_grad2>((void *)decaying, 0.8, 1.1);
  {
    boost::math::quadrature::exp_sinh<double> es;
    double A = 0.8, Bb = 1.1, inf = std::numeric_limits<double>::infinity();
    double wa = es.integrate([&](double t) { return -t * t * t * std::exp(-A * t * t) * std::cos(Bb * t); }, 0.0, inf);
    double wb = es.integrate([&](double t) { return -t * t * std::exp(-A * t * t) * std::sin(Bb * t); }, 0.0, inf);
    fz_check("exp_sinh d/da: quadrature of d integrand/da", e.d0, wa, 1e-9);
    fz_check("exp_sinh d/db", e.d1, wb, 1e-9);
    fz_check("exp_sinh d/da FD", e.d0, fz_fd([&] { return decaying(A, Bb); }, A), 1e-5);
    fz_check("exp_sinh d/db FD", e.d1, fz_fd([&] { return decaying(A, Bb); }, Bb), 1e-5);
  }
  return fz_finish();
}
