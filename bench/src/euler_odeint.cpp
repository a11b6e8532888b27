/* Euler with boost odeint (BENCHMARKS.md 6.1, Enzyme's "ode-const"):
 * integrate_const with odeint's explicit `euler` stepper on x' = -1.2 x,
 * state boost::array<double, 1>; gradient d x(T) / d T through
 * `__enzyme_autodiff`.  The checks and the timing are those of the plain-C
 * version euler.c (ode_harness.h); the odeint code is in ode_odeint.h. */
#define STEPPER "euler"
#include "ode_harness.h"

#define ODEINT_STEPPER euler
#include "ode_odeint.h"

/* Euler's one-step factor R(z) = 1 + z. */
static double amp(double z) { return 1.0 + z; }
static double amp_prime(double z) {
  (void)z;
  return 1.0;
}
