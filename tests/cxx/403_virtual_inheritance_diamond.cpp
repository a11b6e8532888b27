// OPT: O0 O2
// CFLAGS: -std=c++17
// Virtual inheritance: a diamond `Body <- (Spring, Damper) <- Oscillator` where the shared
// virtual base `Body` holds the mass and position (active doubles read from the parameters),
// reached from each branch through the vtable's virtual-base offset; a virtual `energy()`
// overridden in the most-derived class calls both branches' non-virtual helpers and the
// base's virtual `kinetic()`. Objects are built on the stack and on the heap (deleted through
// a pointer to the virtual base, virtual destructor).
// Oracle: the analytic gradient of the energy, central differences, forward/reverse dot
// products.
#include "fz_cxx.h"
#include <cmath>
#include <memory>

struct Body {
  double m, x, v;
  Body(double m_, double x_, double v_) : m(m_), x(x_), v(v_) {}
  virtual ~Body() = default;
  virtual double kinetic() const { return 0.5 * m * v * v; }
  virtual double energy() const { return kinetic(); }
};

struct Spring : virtual Body {
  double k;
  Spring(double k_) : Body(0, 0, 0), k(k_) {}
  double spring_energy() const { return 0.5 * k * x * x; }
};

struct Damper : virtual Body {
  double c;
  Damper(double c_) : Body(0, 0, 0), c(c_) {}
  double damper_power() const { return c * v * v; }
};

struct Oscillator final : Spring, Damper {
  Oscillator(const double *p)
      : Body(p[0], p[1], p[2]), Spring(p[3]), Damper(p[4]) {}
  double energy() const override {
    return kinetic() + spring_energy() + std::exp(-damper_power());
  }
};

static double through_base(const Body &b) { return b.energy(); }
static double through_spring(const Spring &s) { return s.spring_energy() * s.m; }

double model(const double *p) {
  Oscillator o(p);
  std::unique_ptr<Body> h = std::make_unique<Oscillator>(p + 1);
  return through_base(o) + through_spring(o) + 0.5 * h->energy();
}

static double energy_formula(double m, double x, double v, double k, double c) {
  return 0.5 * m * v * v + 0.5 * k * x * x + std::exp(-c * v * v);
}

extern int enzyme_dup;

int main() {
  const int n = 6;
  double p[n] = {1.3, 0.4, -0.7, 2.1, 0.3, 0.8}, dp[n] = {0}, fd[n];
  double f = energy_formula(p[0], p[1], p[2], p[3], p[4]) + 0.5 * p[3] * p[1] * p[1] * p[0] +
             0.5 * energy_formula(p[1], p[2], p[3], p[4], p[5]);
  fz_check("primal", model(p), f, 1e-14);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return model(p); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  double m = p[0], x = p[1], v = p[2], k = p[3], c = p[4], e = std::exp(-c * v * v);
  // the heap oscillator: m' = p1, x' = p2, v' = p3, k' = p4, c' = p5
  double m2 = p[1], x2 = p[2], v2 = p[3], k2 = p[4], c2 = p[5], e2 = std::exp(-c2 * v2 * v2);
  double want[n] = {0.5 * v * v + 0.5 * k * x * x,
                    k * x + k * x * m + 0.5 * 0.5 * v2 * v2,
                    m * v - 2 * c * v * e + 0.5 * k2 * x2,
                    0.5 * x * x + 0.5 * x * x * m + 0.5 * (m2 * v2 - 2 * c2 * v2 * e2),
                    -v * v * e + 0.5 * 0.5 * x2 * x2,
                    0.5 * (-v2 * v2 * e2)};
  fz_check_arr("d/dp analytic", dp, want, n, 1e-12);
  double w[n] = {0.2, -0.5, 0.1, 0.3, 0.7, -0.2}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, w);
  for (int i = 0; i < n; i++) dv += dp[i] * w[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
