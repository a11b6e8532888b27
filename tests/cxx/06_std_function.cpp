// OPT: O0 O2
// CFLAGS: -std=c++17
// std::function inside the differentiated code: a right-hand side stored in a
// std::function and called in an explicit Euler integrator (std::function calls its
// target through a function pointer, so this needs indirect calls). Oracle: finite
// differences.
#include "fz_cxx.h"
#include <functional>
#include <cmath>

double integrate(const std::function<double(double, double)> &rhs, double y0, int steps) {
  double y = y0, t = 0, h = 0.01;
  for (int i = 0; i < steps; i++) {
    y += h * rhs(t, y);
    t += h;
  }
  return y;
}

double run(double y0, double k) {
  std::function<double(double, double)> rhs = [k](double t, double y) {
    return -k * y + std::sin(t);
  };
  return integrate(rhs, y0, 50);
}

int main() {
  fz_seed(306);
  double y0 = fz_uniform(0.5, 1.5), k = fz_uniform(0.5, 2);
  fz_grad2 g = __enzyme_autodiff2((void *)run, y0, k);
  fz_check("dy0", g.d0, fz_fd([&] { return run(y0, k); }, y0), 1e-6);
  fz_check("dk", g.d1, fz_fd([&] { return run(y0, k); }, k), 1e-6);
  return fz_finish();
}
