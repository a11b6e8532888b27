// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// Eigen `Array` expressions mixing a `Map<const ArrayXd>` of enzyme_const data with an
// active SCALAR: `(c * s).exp()`, `(c + s).square()`, `c.pow(s)` and `(s - c).abs2()`;
// Eigen's expression objects hold the Map's pointer next to the scalar's value (its
// `scalar_constant_op` / the binary op's functor) and copy them whole at -O0. Oracle:
// the analytic derivative, central differences, forward mode; the constant data unchanged.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

using Eigen::ArrayXd;
using Eigen::Map;

double f(double s, const double *cp, int n) {
  Map<const ArrayXd> c(cp, n);
  double a = (c * s).exp().sum();
  double b = (c + s).square().sum();
  double p = c.pow(s).sum();
  double q = (s - c).abs2().sum();
  return a + 0.5 * b + p + 0.25 * q;
}

extern int enzyme_out, enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  double c[n] = {0.3, 0.8, 1.4, 0.55, 2.1}, c0[n];
  for (int i = 0; i < n; i++) c0[i] = c[i];
  double s = 0.7;
  double ds = __enzyme_autodiff<double>((void *)f, enzyme_out, s, enzyme_const, c, enzyme_const, n);
  fz_check_arr("constant c unchanged", c, c0, n, 0);
  double want = 0;
  for (int i = 0; i < n; i++)
    want += c[i] * std::exp(c[i] * s) + (c[i] + s) + std::pow(c[i], s) * std::log(c[i]) +
            0.5 * (s - c[i]);
  fz_check("d/ds analytic", ds, want, 1e-10);
  fz_check("d/ds finite differences", ds, fz_fd([&] { return f(s, c, n); }, s), 1e-6);
  double t = __enzyme_fwddiff<double>((void *)f, enzyme_dup, s, 1.0, enzyme_const, c,
                                      enzyme_const, n);
  fz_check("forward d/ds", t, want, 1e-10);
  fz_check_arr("constant c unchanged (forward)", c, c0, n, 0);
  return fz_finish();
}
