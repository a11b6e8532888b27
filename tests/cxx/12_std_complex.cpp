// OPT: O0 O2
// CFLAGS: -std=c++17
// std::complex<double>: products and quotients (clang calls __muldc3/__divdc3 for them,
// on the slow path at -O2 and always at -O0), exp, log, sqrt, pow, sin, cos, tan, sinh,
// cosh, tanh, abs, arg, norm, conj, polar, real/imag, and a complex Horner loop.
// Oracle: finite differences.
#include "fz_cxx.h"
#include <complex>

using C = std::complex<double>;

double spectrum(const double *p, int n) {
  C z(p[0], p[1]), w(p[2], p[3]);
  C acc = 0;
  for (int k = n - 1; k >= 0; k--) acc = acc * z + C(p[(2 * k) % 4], 0.5);  // Horner
  C q = acc / (w + C(2.0, 0.0));
  C e = std::exp(z) + std::log(w) + std::sqrt(z) + std::pow(z, w) + std::sin(w) + std::cos(z) +
        std::tan(0.5 * z) + std::sinh(w) + std::cosh(z) + std::tanh(w);
  C pol = std::polar(std::abs(w), std::arg(z));
  return std::abs(q) + std::norm(e) + std::real(pol * std::conj(z)) + std::imag(q * e);
}

int main() {
  fz_seed(312);
  double p[4], dp[4], fd[4];
  p[0] = fz_uniform(0.3, 0.8);
  p[1] = fz_uniform(0.1, 0.6);
  p[2] = fz_uniform(0.4, 0.9);
  p[3] = fz_uniform(-0.6, -0.1);
  fz_zero(dp, 4);
  __enzyme_autodiff((void *)spectrum, enzyme_dup, p, dp, enzyme_const, 5);
  fz_fd_grad_of([&] { return spectrum(p, 5); }, p, 4, fd);
  fz_check_arr("dp", dp, fd, 4, 1e-6);
  return fz_finish();
}
