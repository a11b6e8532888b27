// OPT: O0 O2
// std::complex<double> and std::complex<float> (issue 10): libstdc++ calls the C99
// functions (cexp, clog, csqrt, csin, cabs, carg ...) and the complex multiply/divide
// helpers, each of which has a built-in rule. Reverse mode.
// Oracle: central differences in double; the float version against the double one.
#include <complex>
#include "../c/fz_test.h"

double g(const double *p) {
  std::complex<double> a(p[0], p[1]), b(p[2], p[3]);
  auto r = std::exp(a) * std::sqrt(b) / (a + b) + std::log(a) * std::sin(b);
  r += std::cos(a) * std::tanh(b) - std::sinh(a) / std::cosh(b) + std::tan(a);
  return std::abs(r) + std::arg(a * b) + std::norm(r) + std::pow(a, 2.0).real();
}

float gf(const float *p) {
  std::complex<float> a(p[0], p[1]), b(p[2], p[3]);
  auto r = std::exp(a) * std::sqrt(b) / (a + b) + std::log(a) * std::sin(b);
  r += std::cos(a) * std::tanh(b) - std::sinh(a) / std::cosh(b) + std::tan(a);
  return std::abs(r) + std::arg(a * b) + std::norm(r);
}

// gf's function in double, for its oracle.
double gd(const double *p) {
  std::complex<double> a(p[0], p[1]), b(p[2], p[3]);
  auto r = std::exp(a) * std::sqrt(b) / (a + b) + std::log(a) * std::sin(b);
  r += std::cos(a) * std::tanh(b) - std::sinh(a) / std::cosh(b) + std::tan(a);
  return std::abs(r) + std::arg(a * b) + std::norm(r);
}

static double eval_g(void *p) { return g(static_cast<double *>(p)); }
static double eval_gd(void *p) { return gd(static_cast<double *>(p)); }

int main() {
  double p[4] = {0.3, 0.7, 0.5, -0.4}, dp[4] = {0, 0, 0, 0}, fd[4];
  __enzyme_autodiff((void *)g, enzyme_dup, p, dp);
  fz_fd_grad(eval_g, p, p, 4, fd);
  fz_check_arr("complex<double>", dp, fd, 4, 1e-6);

  float pf[4], dpf[4] = {0, 0, 0, 0}, want[4];
  for (int i = 0; i < 4; i++) pf[i] = (float)p[i];
  double pd[4];
  for (int i = 0; i < 4; i++) pd[i] = pf[i];
  fz_fd_grad(eval_gd, pd, pd, 4, fd);
  for (int i = 0; i < 4; i++) want[i] = (float)fd[i];
  __enzyme_autodiff((void *)gf, enzyme_dup, pf, dpf);
  fz_check_arrf("complex<float>", dpf, want, 4, 3e-4);
  return fz_finish();
}
