// OPT: O0 O2
// CFLAGS: -std=c++17
// Numerics users write for accuracy: a Neumaier (improved Kahan) compensated sum in a
// small class template (the compensation `(s - t) + y` is exactly zero in real
// arithmetic, so its derivative must not disturb the sum's), `std::isfinite` guards
// skipping terms (the log of the negative entries), range reduction with `std::frexp` (a log computed as `e ln 2 + log(m)`
// from the mantissa, whose derivative is 1/x), `std::modf` splitting a phase into
// integer and fractional parts (d frac / dx = 1), `std::remainder` wrapping an angle
// (derivative 1 away from the jumps), `std::scalbn` and `std::ldexp` scaling by powers of
// two, `std::trunc` choosing a table cell. Oracle: the analytic gradient, central differences, forward/reverse dot
// products.
#include "fz_cxx.h"
#include <cmath>
#include <limits>
#include <vector>

template <typename T>
class NeumaierSum {
  T s_{0}, c_{0};

 public:
  void add(T y) {
    T t = s_ + y;
    if (std::fabs(s_) >= std::fabs(y))
      c_ += (s_ - t) + y;
    else
      c_ += (y - t) + s_;
    s_ = t;
  }
  T value() const { return s_ + c_; }
};

static double log_by_frexp(double x) {
  int e;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  return e * 0.69314718055994530942 + std::log(m);
}

double model(const double *x, int n) {
  NeumaierSum<double> acc;
  std::vector<double> terms;
  for (int i = 0; i < n; i++) {
    double a = x[i];
    double ip, frac = std::modf(3.0 * a + 10.0, &ip);  // 3a + 10 > 0: frac in [0, 1)
    double wrapped = std::remainder(a * 4.0, 2.0 * M_PI);
    double cell = std::trunc(a * 2.0);  // a table cell: piecewise constant
    double lg = log_by_frexp(a * a + 0.5);
    double sc = std::scalbn(a, 3);  // 8 a
    double term = frac * frac + std::sin(wrapped) + cell * a + lg + 0.01 * sc * sc +
                  std::ldexp(a * a, -2);
    double lb = std::log(a);  // nan for the negative entries, skipped by the guard
    if (std::isfinite(term)) acc.add(term);
    if (std::isfinite(lb)) acc.add(0.1 * lb);
    terms.push_back(term);
  }
  acc.add(1e16);
  for (double t : terms) acc.add(1e-3 * t);
  acc.add(-1e16);
  return acc.value();
}

static double dterm(double a) {
  double ip, frac = std::modf(3.0 * a + 10.0, &ip);
  double wrapped = std::remainder(a * 4.0, 2.0 * M_PI);
  double cell = std::trunc(a * 2.0);
  return 2 * frac * 3 + std::cos(wrapped) * 4 + cell + 2 * a / (a * a + 0.5) + 0.01 * 128 * a +
         0.5 * a;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  double x[n] = {0.31, -0.77, 1.23, 0.05, -1.45, 0.93}, dx[n] = {0}, fd[n], want[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) want[i] = 1.001 * dterm(x[i]) + (x[i] > 0 ? 0.1 / x[i] : 0.0);
  fz_check_arr("d/dx analytic", dx, want, n, 1e-9);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  // the 1e16 shift leaves the compensated value exact to ~1e-16 relative, but a central
  // difference of it loses ~1 unit in 1e16 / h: compare with a loose tolerance
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-4);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6, 0.1}, dv = 0;
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
