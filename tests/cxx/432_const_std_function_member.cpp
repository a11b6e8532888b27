// OPT: O0 O2
// CFLAGS: -std=c++20
// A `std::function<double(double)>` activation and a capturing lambda (holding a constant
// scale) stored in an `enzyme_const` struct, called on active values. Oracle: the analytic
// gradient, central differences, forward/reverse dot product, and the constant struct's
// data unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <vector>

struct Model {
  std::function<double(double)> act;
  std::function<double(double, double)> mix;
  std::vector<double> w;
};

double model(const double *x, const Model *m, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += m->w[i] * m->act(x[i]);
  return s + m->mix(x[0], x[n - 1]);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  double k = 0.75;
  Model m{[](double t) { return std::tanh(t); },
          [k](double a, double b) { return k * a * b * b; },
          {0.7, -0.2, 0.5, 0.9}};
  const std::vector<double> w0 = m.w;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &m, enzyme_const, n);
  fz_check("enzyme_const weights unchanged", m.w == w0 ? 1 : 0, 1, 0);
  fz_check("captured scale unchanged", m.mix(1.0, 1.0), 0.75, 0);
  for (int i = 0; i < n; i++) {
    double t = std::tanh(x[i]);
    want[i] += w0[i] * (1 - t * t);
  }
  want[0] += k * x[n - 1] * x[n - 1], want[n - 1] += 2 * k * x[0] * x[n - 1];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &m, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int j = 0; j < n; j++) dv += want[j] * v[j];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &m,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
