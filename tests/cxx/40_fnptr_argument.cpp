// OPT: O0 O2
// CFLAGS: -std=c++17
// A function pointer passed as an argument: an explicit ODE stepper taking its
// right-hand side as `double (*)(double, double)`, and `apply(f, x)`. At -O0 the call is
// indirect in the differentiated code (issue 10, item 4: "function pointer at -O0").
// Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

double decay(double t, double y) { return -0.8 * y + std::sin(t); }
double logistic(double, double y) { return y * (1 - y); }

double euler(double (*rhs)(double, double), double y0, int steps) {
  double y = y0, t = 0, h = 0.05;
  for (int i = 0; i < steps; i++) {
    y += h * rhs(t, y);
    t += h;
  }
  return y;
}
double apply(double (*f)(double, double), double x) { return f(x, x); }

double model(double y0) { return euler(decay, y0, 40) + euler(logistic, 0.5 * y0, 20) + apply(logistic, y0); }

int main() {
  fz_seed(340);
  double y0 = fz_uniform(0.2, 0.8);
  double d = __enzyme_autodiff<double>((void *)model, y0);
  fz_check("dy0", d, fz_fd([&] { return model(y0); }, y0), 1e-6);
  return fz_finish();
}
