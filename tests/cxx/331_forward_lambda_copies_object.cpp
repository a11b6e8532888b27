// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Forward mode through a lambda that captures an object (two `std::vector<double>` of
// constant data) by reference, copies it into a local, sets the local's active member
// and calls a member function template with another lambda: `enzyme::autodiff<Forward>`
// with `Duplicated<double>`. Oracle: the analytic derivative.
#include "fz_cxx.h"
#include <cmath>
#include <enzyme/enzyme>
#include <vector>

struct LineFit {
  std::vector<double> xs, ys;
  double slope = 0, icpt = 0;
  double loss(double s, double b) const {
    double l = 0;
    for (size_t i = 0; i < xs.size(); i++) {
      double r = s * xs[i] + b - ys[i];
      l += r * r;
    }
    return 0.5 * l;
  }
  double own_loss() const { return loss(slope, icpt) + 0.1 * slope * slope; }
  template <typename F> double mapped(F f) const {
    double s = 0;
    for (double y : ys) s += f(y * slope + icpt);
    return s;
  }
};

int main() {
  LineFit m;
  m.xs = {0.0, 0.5, 1.0, 1.5, 2.0};
  m.ys = {0.9, 1.8, 3.1, 3.9, 5.2};
  m.slope = 1.7;
  m.icpt = 0.6;
  auto g = [&m](double b) {
    LineFit c = m;
    c.icpt = b;
    return c.mapped([](double v) { return std::log1p(v * v); });
  };
  auto t = enzyme::autodiff<enzyme::Forward>(g, enzyme::Duplicated<double>{m.icpt, 1.0});
  double want = 0;
  for (double y : m.ys) {
    double v = y * m.slope + m.icpt;
    want += 2 * v / (1 + v * v);
  }
  fz_check("generic lambda forward d/db", enzyme::get<0>(t), want, 1e-12);
  return fz_finish();
}
