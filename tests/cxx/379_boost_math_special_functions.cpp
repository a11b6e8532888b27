// OPT: O0 O2
// CFLAGS: -std=c++17
// boost::math special functions with their default (throwing) policies, differentiated
// through boost's own series, rational approximations and recurrences: the Bessel
// function `cyl_bessel_j(0, x)`, `lgamma`, `beta(a, b)` and the complete elliptic
// integral `ellint_1(k)`. Oracle: the analytic derivatives written with other boost
// functions (dJ0/dx = -J1, d lgamma = digamma, dB/da = B (psi(a) - psi(a + b)),
// dK/dk = E / (k (1 - k^2)) - K / k) and central finite differences.
#include "fz_cxx.h"
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/ellint_2.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>

double special(const double *p) {
  double x = p[0], a = p[1], b = p[2], k = p[3];
  return boost::math::cyl_bessel_j(0, x) + 0.5 * boost::math::lgamma(a) +
         boost::math::beta(a, b) + 0.3 * boost::math::ellint_1(k);
}

extern int enzyme_dup;

int main() {
  double p[4] = {1.7, 2.3, 1.4, 0.6}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)special, enzyme_dup, p, dp);
  double x = p[0], a = p[1], b = p[2], k = p[3];
  double B = boost::math::beta(a, b);
  double K = boost::math::ellint_1(k), E = boost::math::ellint_2(k);
  double want[4] = {
      -boost::math::cyl_bessel_j(1, x),
      0.5 * boost::math::digamma(a) + B * (boost::math::digamma(a) - boost::math::digamma(a + b)),
      B * (boost::math::digamma(b) - boost::math::digamma(a + b)),
      0.3 * (E / (k * (1 - k * k)) - K / k)};
  fz_check_arr("d/dp analytic", dp, want, 4, 1e-9);
  fz_fd_grad_of([&] { return special(p); }, p, 4, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 4, 1e-6);
  return fz_finish();
}
