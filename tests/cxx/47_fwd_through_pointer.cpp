// OPT: O0 O2
// CFLAGS: -std=c++17
// Forward mode through function pointers and a virtual call: the tangent of an
// integrator whose right-hand side is a function pointer, and of a virtual energy.
// Oracles: finite differences along the direction, and the dot-product identity with
// reverse mode.
#include "fz_cxx.h"
#include <cmath>

double rhs(double t, double y) { return -y * y + std::cos(t); }
double integrate(double (*f)(double, double), double y0, double k) {
  double y = y0, t = 0;
  for (int i = 0; i < 30; i++) {
    y += 0.03 * k * f(t, y);
    t += 0.03;
  }
  return y;
}
double run(double y0, double k) { return integrate(rhs, y0, k); }

struct Model {
  virtual ~Model() = default;
  virtual double value(const double *x) const = 0;
};
struct Quad : Model {
  double value(const double *x) const override { return x[0] * x[0] * x[1] + std::exp(x[1]); }
};
double eval(const Model *m, const double *x) { return m->value(x); }

int main() {
  fz_seed(347);
  double y0 = fz_uniform(0.2, 0.8), k = fz_uniform(0.5, 1.5);
  double ty0 = 0.6, tk = -0.4;
  double t = __enzyme_fwddiff<double>((void *)run, y0, ty0, k, tk);
  double v[2] = {ty0, tk}, p[2] = {y0, k};
  auto f = [&] { return run(p[0], p[1]); };
  fz_check("tangent", t, fz_fd_dir_of(f, p, v, 2), 1e-6);
  fz_grad2 g = __enzyme_autodiff2((void *)run, y0, k);
  fz_check("dot identity", t, g.d0 * ty0 + g.d1 * tk, 1e-10);

  Quad q;
  double x[2] = {0.7, -0.3}, tx[2] = {1.0, 0.5};
  double tq = __enzyme_fwddiff<double>((void *)eval, enzyme_const, (Model *)&q, enzyme_dup, x, tx);
  fz_check("virtual tangent", tq, 2 * 0.7 * -0.3 * 1.0 + (0.49 + std::exp(-0.3)) * 0.5, 1e-12);
  return fz_finish();
}
