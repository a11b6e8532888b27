// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `<cmath>` special functions a statistics user reaches for: `std::erf`, `std::erfc`,
// `std::tgamma`, `std::lgamma`, `std::cbrt`, `std::expm1`, `std::log1p`, `std::hypot`,
// `std::atan2`, `std::pow` with a real exponent, inside a templated model evaluated on
// a struct of parameters passed by reference. Reverse mode, forward mode with
// `enzyme_width, 3` (three tangent directions at once through `__enzyme_fwddiff`, the
// struct argument's three shadows after it). Oracles: analytic derivatives (d lgamma = digamma computed by its
// series, d tgamma = tgamma * digamma, d erf = 2/sqrt(pi) e^{-x^2}) and the dot
// product of forward and reverse results.
#include "fz_cxx.h"
#include <cmath>

extern int enzyme_width;

struct Params {
  double a, b, c, d;
};

template <typename T>
T model(const Params &q) {
  T s = std::erf(q.a) + 0.5 * std::erfc(q.b) + std::lgamma(q.c + 2.0) + 0.1 * std::tgamma(q.d + 1.5);
  s += std::cbrt(q.a * q.a + 1.0) + std::expm1(0.3 * q.b) + std::log1p(q.c * q.c);
  s += std::hypot(q.a, q.d) + std::atan2(q.b, q.d + 3.0) + std::pow(q.c + 1.5, 0.7);
  return s;
}

double f(const Params *q) { return model<double>(*q); }

struct V3 {
  double v[3];
};


static double digamma(double x) {
  double r = 0;
  while (x < 8) r -= 1 / x++;
  double x2 = 1 / (x * x);
  return r + std::log(x) - 0.5 / x - x2 * (1.0 / 12 - x2 * (1.0 / 120 - x2 * (1.0 / 252 - x2 / 240)));
}

static void analytic(const Params &q, double *g) {
  const double sp = 2 / std::sqrt(M_PI);
  double h = std::hypot(q.a, q.d), D = q.d + 3.0;
  g[0] = sp * std::exp(-q.a * q.a) + (2 * q.a / 3) * std::pow(q.a * q.a + 1.0, -2.0 / 3) + q.a / h;
  g[1] = -0.5 * sp * std::exp(-q.b * q.b) + 0.3 * std::exp(0.3 * q.b) + D / (q.b * q.b + D * D);
  g[2] = digamma(q.c + 2.0) + 2 * q.c / (1 + q.c * q.c) + 0.7 * std::pow(q.c + 1.5, -0.3);
  g[3] = 0.1 * std::tgamma(q.d + 1.5) * digamma(q.d + 1.5) + q.d / h - q.b / (q.b * q.b + D * D);
}

int main() {
  Params q{0.4, -0.3, 1.2, 0.8}, dq{0, 0, 0, 0};
  double an[4];
  analytic(q, an);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, &q, &dq);
  double got[4] = {dq.a, dq.b, dq.c, dq.d};
  fz_check_arr("reverse vs analytic", got, an, 4, 1e-9);
  // Three directions at once.
  Params t0{1, 0, 0, 0}, t1{0, 0.5, 0, -1}, t2{0.2, 0.3, 1, 0.7};
  V3 r = __enzyme_fwddiff<V3>((void *)f, enzyme_width, 3, enzyme_dup, &q, &t0, &t1, &t2);
  const Params *ts[3] = {&t0, &t1, &t2};
  for (int k = 0; k < 3; k++) {
    double want = an[0] * ts[k]->a + an[1] * ts[k]->b + an[2] * ts[k]->c + an[3] * ts[k]->d;
    fz_check("width-3 forward lane vs analytic", r.v[k], want, 1e-9);
  }
  double fdv[4];
  double *qp = &q.a;
  fz_fd_grad_of([&] { return f(&q); }, qp, 4, fdv);
  fz_check_arr("reverse vs fd", got, fdv, 4, 1e-6);
  return fz_finish();
}
