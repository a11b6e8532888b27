/* RK4, second formulation: the same problem and stepper as rk4.c (x' = -1.2 x,
 * odeint's integrate_const loop, classic runge_kutta4), written the way one
 * writes a one-variable ODE without odeint's state arrays: the state, the stages
 * and the right-hand side are scalars passed and returned by value, the stepper
 * is a function returning the new state. Same checks and timing (ode_harness.h). */
#include <float.h>

#define STEPPER "rk4"
#include "bench.h"

static double decay(double x, double t) {
  (void)t;
  return -1.2 * x;
}

static double rk4_step(double x, double t, double h) {
  double dh = 0.5 * h;
  double k1 = decay(x, t);
  double k2 = decay(x + dh * k1, t + dh);
  double k3 = decay(x + dh * k2, t + dh);
  double k4 = decay(x + h * k3, t + h);
  return x + h / 6.0 * k1 + h / 3.0 * k2 + h / 3.0 * k3 + h / 6.0 * k4;
}

/* Differentiated: x(T) for x(0) = 1 with N steps of h = T/N (integrate_const). */
double foobar(double T, unsigned long N) {
  double x = 1.0, t = 0.0, h = T / (double)N;
  long step = 0;
  while ((t + h) - T <= DBL_EPSILON) {
    x = rk4_step(x, t, h);
    ++step;
    t = (double)step * h;
  }
  return x;
}

static double amp(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0; }
static double amp_prime(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0; }

#include "ode_harness.h"
