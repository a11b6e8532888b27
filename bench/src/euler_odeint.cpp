/* Euler with boost odeint (BENCHMARKS.md 6.1, Enzyme's "ode-const"):
 * integrate_const with odeint's explicit `euler` stepper on x' = -1.2 x,
 * state boost::array<double, 1>; gradient d x(T) / d T through
 * `__enzyme_autodiff`.  The checks and the timing are those of the plain-C
 * version euler.c (ode_harness.h).  Needs libboost-dev (header-only). */
#define STEPPER "euler"
#include "ode_harness.h"

#include <boost/array.hpp>
#include <boost/numeric/odeint.hpp>

typedef boost::array<double, 1> state_type;

/* The system as a functor: a plain function would be called through a
 * function pointer inside odeint, which ferrozyme does not differentiate yet. */
struct decay_rhs {
  void operator()(const state_type &x, state_type &dxdt, double /*t*/) const {
    dxdt[0] = -1.2 * x[0];
  }
};

/* Differentiated: x(T) for x(0) = 1, integrate_const(stepper, rhs, x, 0, T, T/N). */
extern "C" double foobar(double T, unsigned long N) {
  state_type x = {{1.0}};
  /* the default algebra for boost::array (array_algebra), as in Enzyme's
   * benchmark; range_algebra differentiates as well */
  boost::numeric::odeint::euler<state_type, double, state_type, double> stepper;
  boost::numeric::odeint::integrate_const(stepper, decay_rhs(), x, 0.0, T, T / (double)N);
  return x[0];
}

/* Euler's one-step factor R(z) = 1 + z. */
static double amp(double z) { return 1.0 + z; }
static double amp_prime(double z) {
  (void)z;
  return 1.0;
}
