// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// Coefficient-wise Eigen `Array` code as statistics users write a likelihood: an
// `ArrayXd` of rates from `exp` of a linear predictor, `log`, `pow` with an array
// exponent and with a scalar one, `.square()`, `.sqrt()`, `.abs()`, `.max(scalar)`,
// `(a > 0).select(a, b)` choosing per coefficient, `unaryExpr` with a lambda, and
// `.sum()`/`.prod()`/`.mean()` reductions on fixed-size `Array4d` and dynamic arrays.
// Oracle: the analytic gradient (written coefficient by coefficient), central
// differences, forward/reverse dot products; the enzyme_const y checked unchanged. Built with EIGEN_DONT_VECTORIZE: with SSE2
// packets, -O2 is refused clearly (cxx35): Eigen's vectorized `plog` splits the
// mantissa and exponent with `and <2 x i64>` masks ("integer arithmetic on the bits of a
// floating-point value cannot be differentiated"; no forward rule either).
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

using Eigen::ArrayXd;

double nll(const double *theta, const double *y, int n) {
  Eigen::Map<const ArrayXd> t(theta, n), obs(y, n);
  ArrayXd rate = (0.5 * t).exp();                       // e^{t/2}
  ArrayXd ll = obs * rate.log() - rate;                 // Poisson-like terms
  ArrayXd pw = (t.abs() + 1.0).pow(obs * 0.5) + t.square().sqrt() * 0.1;
  ArrayXd sel = (t > 0.0).select(t.pow(3.0), -t * 0.5);  // |t|-like, smooth per side
  ArrayXd soft = t.unaryExpr([](double v) { return std::log1p(std::exp(v)); });
  Eigen::Array4d head = t.head<4>().max(-0.25);
  return -ll.sum() + pw.mean() + sel.sum() + soft.prod() + head.prod();
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  double th[n] = {0.4, -0.7, 1.1, -0.1, 0.6, -1.3}, y[n] = {1, 0, 3, 2, 1, 4};
  double dth[n] = {0}, fd[n], want[n];
  __enzyme_autodiff<void>((void *)nll, enzyme_dup, th, dth, enzyme_const, y, enzyme_const, n);
  const double y0[n] = {1, 0, 3, 2, 1, 4};
  fz_check_arr("constant y unchanged", y, y0, n, 0);
  double softprod = 1, headprod = 1;
  for (int i = 0; i < n; i++) softprod *= std::log1p(std::exp(th[i]));
  for (int i = 0; i < 4; i++) headprod *= std::max(th[i], -0.25);
  for (int i = 0; i < n; i++) {
    double t = th[i], r = std::exp(0.5 * t), a = std::fabs(t), sg = t > 0 ? 1.0 : -1.0;
    double d = -(y[i] * 0.5 - 0.5 * r);                                   // -ll
    d += (y[i] * 0.5 * std::pow(a + 1, y[i] * 0.5 - 1) * sg + 0.1 * sg) / n;  // pw.mean()
    d += t > 0 ? 3 * t * t : -0.5;                                        // sel
    double sp = std::log1p(std::exp(t));
    d += softprod / sp * (1 / (1 + std::exp(-t)));                        // soft.prod()
    if (i < 4 && t > -0.25) d += headprod / t;                            // head.prod()
    want[i] = d;
  }
  fz_check_arr("d/dtheta analytic", dth, want, n, 1e-10);
  fz_fd_grad_of([&] { return nll(th, y, n); }, th, n, fd);
  fz_check_arr("d/dtheta finite differences", dth, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6, 0.1}, dv = 0;
  for (int i = 0; i < n; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)nll, enzyme_dup, th, v, enzyme_const, y,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
