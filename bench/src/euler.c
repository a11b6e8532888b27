/* Euler: odeint's explicit Euler stepper in plain C on x' = -1.2 x
 * (BENCHMARKS.md 6.1, Enzyme's "ode-const"); gradient d x(T) / d T through
 * `__enzyme_autodiff`.  One step: x <- x + h * f(x, t). */
#define STEPPER "euler"
#include "ode_common.h"

static void do_step(double *x, double t, double dt) {
  double dxdt[NSTATE];
  decay_rhs(x, dxdt, t);
  for (int i = 0; i < NSTATE; i++) x[i] = x[i] + dt * dxdt[i];
}

static double amp(double z) { return 1.0 + z; }
static double amp_prime(double z) {
  (void)z;
  return 1.0;
}
