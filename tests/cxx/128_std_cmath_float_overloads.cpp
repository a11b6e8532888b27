// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// `<cmath>` as C++ users call it: the `std::` overloads for `float` (which clang lowers
// to `erff`, `tgammaf`, `lgammaf`, `cbrtf`, `fmaf`, `fminf`, `fmaxf`, `copysignf`,
// `hypotf`, `expm1f`, `log1pf`, `atan2f`) and for `double` (including the C++17
// three-argument `std::hypot(x, y, z)`, `std::fma`, `std::fmin`/`std::fmax` picking
// each operand, `std::copysign` with an active magnitude, `std::clamp`, `std::lerp`),
// in one objective per precision. Oracle: analytic derivatives (digamma by recurrence
// and the asymptotic series) and central finite differences of the primal.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>

static double digamma(double x) {
  double r = 0;
  while (x < 8) r -= 1 / x, x += 1;
  double f = 1 / (x * x);
  return r + std::log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f / 240)));
}

float fobj(const float *p) {
  return std::erf(p[0]) + std::tgamma(p[1]) + std::lgamma(p[2]) + std::cbrt(p[3]) +
         std::fma(p[0], p[1], p[2]) + std::fmin(p[3], p[4]) + std::fmax(p[3], p[4]) +
         std::copysign(p[5], -1.0f) + std::hypot(p[0], p[5]) + std::expm1(p[4]) +
         std::log1p(p[1]) + std::atan2(p[2], p[3]);
}

double dobj(const double *p) {
  return std::hypot(p[0], p[1], p[2]) + std::fma(p[3], p[4], p[0]) * std::fmin(p[1], p[4]) +
         std::fmax(p[2], p[3]) * std::copysign(p[4], p[0]) + std::clamp(p[3], -1.0, 0.5) +
         std::lerp(p[0], p[1], p[2]) + std::erfc(p[1]) + std::tgamma(p[2] + 2) +
         std::lgamma(p[3] + 3) + std::cbrt(p[4] + 1);
}

int main() {
  float pf[6] = {0.4f, 1.7f, 2.6f, 0.9f, -0.3f, 0.75f}, dpf[6] = {0};
  __enzyme_autodiff<float>((void *)fobj, enzyme_dup, pf, dpf);
  const double sp = 2.0 / std::sqrt(M_PI);
  double p0 = pf[0], p1 = pf[1], p2 = pf[2], p3 = pf[3], p4 = pf[4], p5 = pf[5];
  double h05 = std::hypot(p0, p5);
  double wf[6] = {
      sp * std::exp(-p0 * p0) + p1 + p0 / h05,
      std::tgamma(p1) * digamma(p1) + p0 + 1 / (1 + p1),
      digamma(p2) + 1 + p3 / (p2 * p2 + p3 * p3),
      1 / (3 * std::cbrt(p3) * std::cbrt(p3)) + 1 /* max(p3, p4) = p3 */ - p2 / (p2 * p2 + p3 * p3),
      1 /* min(p3, p4) = p4 */ + std::exp(p4),
      -1 + p5 / h05,
  };
  for (int i = 0; i < 6; i++) {
    char b[32];
    snprintf(b, sizeof b, "float d%d", i);
    fz_check(b, dpf[i], wf[i], 2e-5);
  }

  double p[5] = {0.6, -0.8, 0.3, 0.2, 0.7}, dp[5] = {0};
  __enzyme_autodiff<void>((void *)dobj, enzyme_dup, p, dp);
  double h = std::hypot(p[0], p[1], p[2]);
  double fm = std::fma(p[3], p[4], p[0]), mn = std::fmin(p[1], p[4]); /* p1 */
  double mx = std::fmax(p[2], p[3]);                                   /* p2 */
  double cs = std::copysign(p[4], p[0]);                               /* +p4 */
  double w[5] = {
      p[0] / h + mn + (1 - p[2]),
      p[1] / h + fm + p[2] - sp * std::exp(-p[1] * p[1]),
      p[2] / h + cs + (p[1] - p[0]) + std::tgamma(p[2] + 2) * digamma(p[2] + 2),
      p[4] * mn + 1 + digamma(p[3] + 3),
      p[3] * mn + mx + 1 / (3 * std::cbrt(p[4] + 1) * std::cbrt(p[4] + 1)),
  };
  double fd[5];
  fz_fd_grad_of([&] { return dobj(p); }, p, 5, fd);
  fz_check_arr("double analytic", dp, w, 5, 1e-10);
  fz_check_arr("double fd", dp, fd, 5, 1e-6);
  return fz_finish();
}
