// OPT: O0 O2
// A time loop whose counter is a double (`for (double t = 0; t < T; t += dt)`), as
// scientists write explicit integrators: the forcing reads t, the step size dt is
// itself an active `enzyme_out` argument beside the amplitude and the rate, and an int
// (the number of steps taken) is counted on the side. The trip count depends on dt, but
// T/dt is kept away from an integer so a small step does not change it: the derivative
// through the loop body is then the true one. Also a `while (t < T)` variant that clips
// its last step (`h = fmin(dt, T - t)`), whose derivative wrt dt drops the clipped step's
// dependence on dt. Oracles: central differences (every derivative), forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static int steps_taken;

/* y' = -k y + amp sin(3 t), explicit Euler; returns y(T) + sum of y^2 dt */
double euler(double amp, double dt, double k, double T) {
  double y = 1.0, q = 0.0;
  int n = 0;
  for (double t = 0.0; t < T; t += dt) {
    double f = -k * y + amp * sin(3.0 * t);
    y += dt * f;
    q += y * y * dt;
    n++;
  }
  steps_taken = n;
  return y + q;
}

/* Heun's method, last step clipped to land on T */
double heun_clipped(double amp, double dt, double k, double T) {
  double y = 0.5, t = 0.0;
  while (t < T) {
    double h = fmin(dt, T - t);
    double f0 = -k * y * y + amp * cos(t);
    double yp = y + h * f0;
    double f1 = -k * yp * yp + amp * cos(t + h);
    y += 0.5 * h * (f0 + f1);
    t += h;
  }
  return y;
}

typedef struct { double p[4]; int which; } ctx;
static double ev(void *v) {
  ctx *c = v;
  return c->which ? heun_clipped(c->p[0], c->p[1], c->p[2], c->p[3])
                  : euler(c->p[0], c->p[1], c->p[2], c->p[3]);
}

int main(void) {
  double amp = 0.8, dt = 0.0137, k = 1.3, T = 1.0;
  /* T/dt = 72.99...: 73 steps, stable under a 1e-6 relative change of dt */
  fz_grad3 g = __enzyme_autodiff3((void *)euler, enzyme_out, amp, enzyme_out, dt, enzyme_out, k,
                                  enzyme_const, T);
  fz_check("euler: steps", steps_taken, 73, 0);
  ctx c = {{amp, dt, k, T}, 0};
  fz_check("euler d/d amp", g.d0, fz_fd_ptr(ev, &c, &c.p[0]), 1e-6);
  fz_check("euler d/d dt", g.d1, fz_fd_ptr(ev, &c, &c.p[1]), 1e-6);
  fz_check("euler d/d k", g.d2, fz_fd_ptr(ev, &c, &c.p[2]), 1e-6);
  /* forward: a direction in (amp, dt, k) */
  double v[3] = {0.3, -2.0, 0.7};
  double jv = __enzyme_fwddiff((void *)euler, amp, v[0], dt, v[1], k, v[2], enzyme_const, T);
  fz_check("euler forward = reverse", jv, v[0] * g.d0 + v[1] * g.d1 + v[2] * g.d2, 1e-12);

  /* clipped steps: dt = 0.07 gives 14 full steps and a clipped 0.02 */
  double dt2 = 0.07;
  fz_grad3 h = __enzyme_autodiff3((void *)heun_clipped, enzyme_out, amp, enzyme_out, dt2,
                                  enzyme_out, k, enzyme_const, T);
  ctx c2 = {{amp, dt2, k, T}, 1};
  fz_check("heun d/d amp", h.d0, fz_fd_ptr(ev, &c2, &c2.p[0]), 1e-6);
  fz_check("heun d/d dt", h.d1, fz_fd_ptr(ev, &c2, &c2.p[1]), 1e-6);
  fz_check("heun d/d k", h.d2, fz_fd_ptr(ev, &c2, &c2.p[2]), 1e-6);
  double hv = __enzyme_fwddiff((void *)heun_clipped, amp, v[0], dt2, v[1], k, v[2], enzyme_const, T);
  fz_check("heun forward = reverse", hv, v[0] * h.d0 + v[1] * h.d1 + v[2] * h.d2, 1e-12);
  /* T active too: d/dT */
  typedef struct { double a, b, c, d; } g4;
  extern g4 __enzyme_autodiff4(void *, ...);
  g4 h4 = __enzyme_autodiff4((void *)heun_clipped, enzyme_out, amp, enzyme_out, dt2, enzyme_out,
                             k, enzyme_out, T);
  fz_check("heun d/d T", h4.d, fz_fd_ptr(ev, &c2, &c2.p[3]), 1e-6);
  fz_check("heun d/d amp (4 outs)", h4.a, h.d0, 1e-12);
  return fz_finish();
}
