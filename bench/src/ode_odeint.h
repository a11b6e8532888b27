/* ode_odeint.h -- the ODE benchmark problem on boost odeint, shared by
 * euler_odeint.cpp and rk4_odeint.cpp: state boost::array<double, 1>, the
 * system x' = -1.2 x, and the differentiated `foobar`, integrating with the
 * stepper type the including file names as ODEINT_STEPPER (`euler`,
 * `runge_kutta4`). Include after ode_harness.h. Needs libboost-dev
 * (header-only). */
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
  boost::numeric::odeint::ODEINT_STEPPER<state_type, double, state_type, double> stepper;
  boost::numeric::odeint::integrate_const(stepper, decay_rhs(), x, 0.0, T, T / (double)N);
  return x[0];
}
