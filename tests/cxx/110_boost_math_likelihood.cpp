// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -DBOOST_MATH_DOMAIN_ERROR_POLICY=errno_on_error -DBOOST_MATH_POLE_ERROR_POLICY=errno_on_error -DBOOST_MATH_OVERFLOW_ERROR_POLICY=errno_on_error -DBOOST_MATH_EVALUATION_ERROR_POLICY=errno_on_error -DBOOST_MATH_ROUNDING_ERROR_POLICY=errno_on_error
// A user's negative log-likelihood written with boost::math special functions (header
// only): `boost::math::erf` and `erfc` (probit link), `lgamma` and `digamma` (a
// negative-binomial term), `sinc_pi`, `log1p`/`expm1`, `hypot`; boost's own code is
// differentiated (its rational approximations, series and policies), not libm's.
// boost's `erf_imp` works in `long double` and calls `frexp` on it: `llvm.frexp.f80` had
// no derivative rule (split by `split_math.rs` since sweep13). The error policies are
// errno ones: with boost's default policies (exceptions) the throw paths are
// missing-derivative for `std::domain_error`'s constructor, which has no IR.
// Oracles: central finite differences of the primal; d lgamma/dx against boost's digamma.
#include "fz_cxx.h"
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/hypot.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/sinc.hpp>

namespace bm = boost::math;

double nll(const double *theta, const double *xs, const int *ys, int n) {
  double a = theta[0], b = theta[1], r = theta[2];
  double s = 0;
  for (int i = 0; i < n; i++) {
    double z = (a + b * xs[i]) / std::sqrt(2.0);
    double p = 0.5 * (1 + bm::erf(z));
    double q = 0.5 * bm::erfc(z);
    s -= ys[i] ? std::log(p) : std::log(q);
  }
  // negative-binomial style normaliser in r
  s += bm::lgamma(r + 3.0) - bm::lgamma(r) + 0.1 * bm::sinc_pi(a) + bm::log1p(b * b) +
       0.05 * bm::expm1(0.3 * r) + 0.01 * bm::hypot(a, b);
  return s;
}

double lg(double x) { return bm::lgamma(x); }

int main() {
  const int n = 6;
  double xs[n] = {-1.0, -0.4, 0.1, 0.5, 1.1, 1.7};
  int ys[n] = {0, 0, 1, 0, 1, 1};
  double th[3] = {0.2, 0.9, 2.3}, dth[3] = {0};
  __enzyme_autodiff<void>((void *)nll, enzyme_dup, th, dth, enzyme_const, xs, enzyme_const, ys,
                          enzyme_const, n);
  for (int i = 0; i < 3; i++)
    fz_check("boost nll d/dtheta", dth[i], fz_fd([&] { return nll(th, xs, ys, n); }, th[i]),
             1e-6);
  for (double x : {0.7, 2.5, 11.0}) {
    double d = __enzyme_autodiff<double>((void *)lg, x);
    fz_check("d boost::math::lgamma = digamma", d, bm::digamma(x), 1e-10);
  }
  return fz_finish();
}
