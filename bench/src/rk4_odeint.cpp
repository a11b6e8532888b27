/* RK4 with boost odeint (BENCHMARKS.md 6.1, Enzyme's "ode"; the paper's "RK4"):
 * integrate_const with odeint's classic `runge_kutta4` stepper on x' = -1.2 x,
 * state boost::array<double, 1>; gradient d x(T) / d T through
 * `__enzyme_autodiff`.  Enzyme's harness uses an adaptive DOPRI5 that never
 * rejects a step here and agrees with runge_kutta4 to ~1e-12; we use
 * runge_kutta4.  The checks and the timing are those of the plain-C version
 * rk4.c (ode_harness.h); the odeint code is in ode_odeint.h. */
#define STEPPER "rk4"
#include "ode_harness.h"

#define ODEINT_STEPPER runge_kutta4
#include "ode_odeint.h"

/* RK4's one-step factor R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24. */
static double amp(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0; }
static double amp_prime(double z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0; }
