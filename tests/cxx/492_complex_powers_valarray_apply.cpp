// OPT: O0 O1 O2 O3
// probe42: std::complex<double> with a complex exponent (`pow(z, complex)`), `exp`,
// `sqrt`, `log`, `arg`, `norm`, `abs`; std::valarray with `apply`, a `slice` of the
// result, `max`/`min`/`sum`. Oracles: central differences, forward = reverse.
#include <cmath>
#include <complex>
#include <valarray>
#include "fz_cxx.h"

using C = std::complex<double>;
double cplx(double a, double b) {
  C z(a, b);
  C w = std::exp(z * C(0.3, -0.2)) + std::pow(z, 2.5) - std::sqrt(z + 2.0);
  C q = std::pow(z, C(1.1, 0.4)) / (z * z + 1.0);
  return std::abs(w) + std::arg(q) + std::norm(std::log(z));
}

double va(const double *x, int n) {
  std::valarray<double> v(x, n);
  std::valarray<double> w = std::exp(-v * v) + 2.0 * v;
  w *= v.apply([](double t) { return t * t * t; });
  std::valarray<double> s = w[std::slice(1, 3, 2)];
  return w.sum() + s.max() + (v * w).min();
}

int main() {
  double a = 0.8, b = 0.6;
  fz_grad2 g = __enzyme_autodiff2((void *)cplx, a, b);
  auto F = [&] { return cplx(a, b); };
  fz_check("complex da", g.d0, fz_fd(F, a), 1e-6);
  fz_check("complex db", g.d1, fz_fd(F, b), 1e-6);
  double ta = __enzyme_fwddiff<double>((void *)cplx, a, 1.0, b, 0.0);
  fz_check("complex fwd da", ta, g.d0, 1e-10);
  const int n = 6;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)va, enzyme_dup, x, dx, enzyme_const, n);
  auto V = [&] { return va(x, n); };
  for (int i = 0; i < n; i++) fz_check("valarray", dx[i], fz_fd(V, x[i]), 1e-6);
  return fz_finish();
}
