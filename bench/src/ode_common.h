/* ode_common.h -- the parts shared by the plain-C ODE benchmarks euler.c and
 * rk4.c: the test system and odeint's integrate_const loop in C; the checks and
 * the timing `main` are in ode_harness.h (shared with the boost odeint versions
 * euler_odeint.cpp and rk4_odeint.cpp).  Each including file defines `do_step`
 * (one stepper step, in place) and the stepper's one-step amplification factor
 * (`amp`, `amp_prime`) for the linear test problem, then includes this file.
 *
 * System (BENCHMARKS.md 6.1): x' = -1.2 x, x(0) = 1, state of one double
 * (boost::array<double,1>).  `foobar(T, N)` integrates from 0 to T with step
 * h = T/N the way boost::numeric::odeint's integrate_const does for a plain
 * stepper: loop while (t + h) - T <= machine epsilon, t = step * h, so
 * rounding can make it take N-1 steps.  The derivative is d x(T) / d T.
 */
#include <float.h>

#include "bench.h"

#define NSTATE 1

static void decay_rhs(const double *x, double *dxdt, double t) {
  (void)t;
  for (int i = 0; i < NSTATE; i++) dxdt[i] = -1.2 * x[i];
}

static void do_step(double *x, double t, double dt);

/* integrate_const(stepper, rhs, x, 0.0, T, T/N) */
static void integrate_const(double *x, double start, double end, double dt) {
  double t = start;
  long step = 0;
  while ((t + dt) - end <= DBL_EPSILON) {
    do_step(x, t, dt);
    ++step;
    t = start + (double)step * dt;
  }
}

/* Differentiated: x(T) for x(0) = 1 with N steps. */
double foobar(double T, unsigned long N) {
  double x[NSTATE] = {1.0};
  integrate_const(x, 0.0, T, T / (double)N);
  return x[0];
}

/* the checks and main (after foobar, as before the harness was shared) */
#include "ode_harness.h"
