// OPT: O0 O2
// CFLAGS: -std=c++17
// Objects built with placement new in a user's arena: an `alignas(Body)` byte buffer on
// the stack holds `Body` records constructed in place from the parameters (`new (slot)
// Body{...}`), read back through `std::launder`, updated in a time loop, destroyed
// explicitly (`b->~Body()`), and one slot reused for a different type (`Spring`) after
// the destruction. Oracle: central differences, the analytic derivative of one explicit
// Euler step, and forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <cstddef>
#include <new>

struct Body {
  double x, v, m;
  Body(double x_, double v_, double m_) : x(x_), v(v_), m(m_) {}
  ~Body() { x = v = m = 0; }  // scrubbed on destruction, as some users do
  double energy() const { return 0.5 * m * v * v; }
};

struct Spring {
  double k, rest;
  double force(double d) const { return -k * (d - rest); }
};

static_assert(sizeof(Spring) <= sizeof(Body), "slot reuse");

double simulate(const double *p, int steps) {
  constexpr int N = 3;
  alignas(Body) unsigned char arena[N * sizeof(Body)];
  Body *b[N];
  for (int i = 0; i < N; i++)
    b[i] = new (arena + i * sizeof(Body)) Body(p[i], 0.1 * i, 1.0 + p[3] * i);
  // the last body becomes the spring joining the first two
  double m2 = b[2]->m, x2 = b[2]->x;
  b[2]->~Body();
  Spring *s = new (arena + 2 * sizeof(Body)) Spring{p[4], x2};
  const double dt = 0.05;
  for (int t = 0; t < steps; t++) {
    Body *a = std::launder(reinterpret_cast<Body *>(arena));
    Body *c = std::launder(reinterpret_cast<Body *>(arena + sizeof(Body)));
    double f = s->force(c->x - a->x);
    a->v -= dt * f / a->m;
    c->v += dt * f / c->m;
    a->x += dt * a->v;
    c->x += dt * c->v;
  }
  double e = b[0]->energy() + b[1]->energy() + 0.01 * m2 + b[0]->x * b[1]->x;
  b[0]->~Body();
  b[1]->~Body();
  return e;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double p[5] = {0.2, 1.1, 0.7, 0.5, 3.0}, dp[5] = {0}, fd[5];
  __enzyme_autodiff<void>((void *)simulate, enzyme_dup, p, dp, enzyme_const, 20);
  fz_fd_grad_of([&] { return simulate(p, 20); }, p, 5, fd);
  fz_check_arr("d/dp finite differences (20 steps)", dp, fd, 5, 1e-6);
  // one step, analytic: f = -k (x1 - x0 - x2); v0 = -dt f, v1 = 0.1 + dt f / (1 + p3);
  // x0' = x0 + dt v0, x1' = x1 + dt v1; e = v0^2/2 + (1+p3) v1^2/2 + 0.01 (1 + 2 p3) + x0' x1'
  double q[5] = {0.2, 1.1, 0.7, 0.5, 3.0}, dq[5] = {0};
  __enzyme_autodiff<void>((void *)simulate, enzyme_dup, q, dq, enzyme_const, 1);
  {
    const double dt = 0.05, k = q[4], m1 = 1 + q[3];
    double f = -k * (q[1] - q[0] - q[2]);
    double v0 = -dt * f, v1 = 0.1 + dt * f / m1, x0 = q[0] + dt * v0, x1 = q[1] + dt * v1;
    // d f / d(x0, x1, x2, p3, k)
    double df[5] = {k, -k, k, 0, -(q[1] - q[0] - q[2])};
    double want[5];
    for (int j = 0; j < 5; j++) {
      double dv0 = -dt * df[j], dv1 = dt * df[j] / m1 - (j == 3 ? dt * f / (m1 * m1) : 0);
      double dx0 = (j == 0) + dt * dv0, dx1 = (j == 1) + dt * dv1;
      want[j] = v0 * dv0 + m1 * v1 * dv1 + (j == 3 ? 0.5 * v1 * v1 + 0.02 : 0) + dx0 * x1 +
                x0 * dx1;
    }
    fz_check_arr("d/dp analytic (1 step)", dq, want, 5, 1e-11);
  }
  double v[5] = {0.3, -0.2, 0.5, 0.1, -0.4}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)simulate, enzyme_dup, p, v, enzyme_const, 20);
  for (int i = 0; i < 5; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-11);
  return fz_finish();
}
