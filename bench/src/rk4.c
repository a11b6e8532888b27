/* RK4: odeint's classic runge_kutta4 stepper in plain C on x' = -1.2 x
 * (BENCHMARKS.md 6.1, Enzyme's "ode"; the paper's "RK4" - Enzyme's harness
 * uses an adaptive DOPRI5 that never rejects a step here, and boost's
 * runge_kutta4 agrees with it to ~1e-12; we use runge_kutta4).
 * Gradient d x(T) / d T through `__enzyme_autodiff`. */
#define STEPPER "rk4"
#include "ode_common.h"

static void do_step(double *x, double t, double dt) {
  double k1[NSTATE], k2[NSTATE], k3[NSTATE], k4[NSTATE], xt[NSTATE];
  double dh = 0.5 * dt;
  decay_rhs(x, k1, t);
  for (int i = 0; i < NSTATE; i++) xt[i] = x[i] + dh * k1[i];
  decay_rhs(xt, k2, t + dh);
  for (int i = 0; i < NSTATE; i++) xt[i] = x[i] + dh * k2[i];
  decay_rhs(xt, k3, t + dh);
  for (int i = 0; i < NSTATE; i++) xt[i] = x[i] + dt * k3[i];
  decay_rhs(xt, k4, t + dt);
  for (int i = 0; i < NSTATE; i++)
    x[i] = x[i] + dt / 6.0 * k1[i] + dt / 3.0 * k2[i] + dt / 3.0 * k3[i] + dt / 6.0 * k4[i];
}

static double amp(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0; }
static double amp_prime(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0; }
