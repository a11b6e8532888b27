// OPT: O0 O2
// CFLAGS: -std=c++17
// <cmath> through the std:: overloads (double and float): sin, cos, tan, exp, exp2,
// expm1, log, log2, log10, log1p, pow, sqrt, cbrt, hypot (2 and 3 arguments), atan2,
// sinh, cosh, tanh, asinh, acosh, atanh, asin, acos, atan, erf, erfc, fma, fmax, fmin,
// fabs, abs, copysign, fmod. Oracles: analytic per function (sum of the derivatives).
#include "fz_cxx.h"
#include <cmath>

double all(double x) {
  return std::sin(x) + std::cos(x) + std::tan(x) + std::exp(x) + std::exp2(x) + std::expm1(x) +
         std::log(x) + std::log2(x) + std::log10(x) + std::log1p(x) + std::pow(x, 2.5) +
         std::pow(2.0, x) + std::sqrt(x) + std::cbrt(x) + std::hypot(x, 2.0) +
         std::hypot(x, 1.0, 2.0) + std::atan2(x, 0.7) + std::sinh(x) + std::cosh(x) +
         std::tanh(x) + std::asinh(x) + std::acosh(x + 1.0) + std::atanh(0.5 * x) +
         std::asin(0.5 * x) + std::acos(0.5 * x) + std::atan(x) + std::erf(x) + std::erfc(x) +
         std::fma(x, x, 1.0) + std::fmax(x, 0.1) + std::fmin(x, 2.0) + std::fabs(-x) +
         std::abs(x - 2.0) + std::copysign(x, -1.0) + std::fmod(3.0 * x, 1.3);
}

float allf(float x) { return std::sin(x) * std::exp(x) + std::pow(x, 1.5f) + std::hypot(x, 1.0f); }

int main() {
  fz_seed(313);
  double x = fz_uniform(0.4, 0.9);
  double d = __enzyme_autodiff<double>((void *)all, x);
  const double ln2 = std::log(2.0), ln10 = std::log(10.0), sq = std::sqrt(x);
  double want = std::cos(x) - std::sin(x) + 1 + std::tan(x) * std::tan(x) + std::exp(x) +
                ln2 * std::exp2(x) + std::exp(x) + 1 / x + 1 / (x * ln2) + 1 / (x * ln10) +
                1 / (1 + x) + 2.5 * std::pow(x, 1.5) + ln2 * std::pow(2.0, x) + 0.5 / sq +
                1 / (3 * std::cbrt(x) * std::cbrt(x)) + x / std::hypot(x, 2.0) +
                x / std::sqrt(x * x + 5.0) + 0.7 / (x * x + 0.49) + std::cosh(x) + std::sinh(x) +
                1 - std::tanh(x) * std::tanh(x) + 1 / std::sqrt(x * x + 1) +
                1 / std::sqrt((x + 1) * (x + 1) - 1) + 0.5 / (1 - 0.25 * x * x) +
                0.5 / std::sqrt(1 - 0.25 * x * x) - 0.5 / std::sqrt(1 - 0.25 * x * x) +
                1 / (1 + x * x) + 2 / std::sqrt(M_PI) * std::exp(-x * x) -
                2 / std::sqrt(M_PI) * std::exp(-x * x) + 2 * x + 1 + 1 + 1 - 1 - 1 + 3;
  fz_check("d all", d, want, 1e-10);
  float xf = 0.6f;
  float df = __enzyme_autodiff<float>((void *)allf, xf);
  double wantf = (std::cos(0.6) + std::sin(0.6)) * std::exp(0.6) + 1.5 * std::sqrt(0.6) +
                 0.6 / std::hypot(0.6, 1.0);
  fz_check("d allf", df, wantf, 1e-5);
  return fz_finish();
}
