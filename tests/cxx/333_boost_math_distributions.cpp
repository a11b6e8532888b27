// OPT: O0 O2 O3
// CFLAGS: -std=c++17 -Wno-deprecated-declarations
// boost::math used the way statistics code does inside a differentiated log-likelihood:
// `boost::math::normal_distribution` `pdf`/`cdf` (erfc underneath), `lognormal`'s `pdf`,
// `boost::math::lgamma`/`digamma`-free Student-t density written with `std::lgamma`,
// `boost::math::log1p`/`expm1`, and `boost::math::hypot`. Parameters (mean, log sigma,
// degrees of freedom) are the active inputs. Oracle: central finite differences and the
// analytic score of the normal log-density. boost's default (throwing) error policies:
// `raise_error<std::domain_error>` is on the differentiated path, never taken; the
// function names it formats come from `static const char *function = "..."` locals,
// mutable globals only ever loaded, which used to get shadows and then mix with string
// literals in a `select` (mismatched activity at -O1..-O3; `activity/globals.rs`).
#include "fz_cxx.h"
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/hypot.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <cmath>

extern int enzyme_dup, enzyme_const, enzyme_out;

double loglik(const double *th, const double *data, int n) {
  double mu = th[0], sigma = std::exp(th[1]), nu = 2.0 + std::exp(th[2]);
  boost::math::normal_distribution<double> N(mu, sigma);
  boost::math::lognormal_distribution<double> LN(mu * 0.1, sigma);
  double ll = 0;
  for (int i = 0; i < n; i++) {
    double x = data[i];
    ll += std::log(boost::math::pdf(N, x));
    ll += 0.1 * boost::math::cdf(N, x);
    ll += 0.05 * std::log(boost::math::pdf(LN, std::fabs(x) + 0.5));
    double z = (x - mu) / sigma;
    ll += std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) -
          0.5 * std::log(nu * M_PI) - (nu + 1) / 2 * boost::math::log1p(z * z / nu);
  }
  ll += boost::math::expm1(0.1 * mu) + boost::math::hypot(th[1], th[2]);
  return ll;
}

double normal_only(const double *th, const double *data, int n) {
  boost::math::normal_distribution<double> N(th[0], std::exp(th[1]));
  double ll = 0;
  for (int i = 0; i < n; i++) ll += std::log(boost::math::pdf(N, data[i]));
  return ll;
}

int main() {
  const int n = 8;
  double data[n] = {0.3, -1.1, 0.8, 2.2, -0.4, 1.5, 0.05, -2.0};
  double th[3] = {0.2, -0.3, 0.7}, dth[3] = {0}, want[3];
  __enzyme_autodiff<void>((void *)loglik, enzyme_dup, th, dth, enzyme_const, data, enzyme_const, n);
  fz_fd_grad_of([&] { return loglik(th, data, n); }, th, 3, want);
  fz_check_arr("loglik grad", dth, want, 3, 1e-6);

  double dn[3] = {0};
  __enzyme_autodiff<void>((void *)normal_only, enzyme_dup, th, dn, enzyme_const, data, enzyme_const, n);
  double s2 = std::exp(2 * th[1]), gm = 0, gs = 0;
  for (int i = 0; i < n; i++) {
    double r = data[i] - th[0];
    gm += r / s2;
    gs += r * r / s2 - 1.0;  // d/d(log sigma)
  }
  fz_check("normal score d/dmu", dn[0], gm, 1e-10);
  fz_check("normal score d/dlogsigma", dn[1], gs, 1e-10);
  return fz_finish();
}
