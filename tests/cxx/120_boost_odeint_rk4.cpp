// OPT: O0 O1 O2 O3
// boost::numeric::odeint as users call it: a damped driven oscillator as a functor with
// active parameters (stiffness, damping) in its members, the state a `std::array<double, 2>`,
// `runge_kutta4` stepped by `integrate_const` with an observer that accumulates a loss
// into a captured reference. The loss is differentiated with respect to the parameters
// and the initial state. Oracle: central finite differences of the same program.
#include "fz_cxx.h"
#include <array>
#include <boost/numeric/odeint.hpp>

namespace ode = boost::numeric::odeint;
typedef std::array<double, 2> state;

struct oscillator {
  double k, c;
  void operator()(const state &x, state &dxdt, double t) const {
    dxdt[0] = x[1];
    dxdt[1] = -k * x[0] - c * x[1] + 0.3 * std::cos(1.1 * t);
  }
};

struct accumulate_obs {
  double &loss;
  void operator()(const state &x, double t) const { loss += x[0] * x[0] * (1.0 + 0.1 * t); }
};

double trajectory_loss(const double *p, const double *x0) {
  oscillator f{p[0], p[1]};
  state x{x0[0], x0[1]};
  double loss = 0.0;
  ode::runge_kutta4<state> stepper;
  ode::integrate_const(stepper, f, x, 0.0, 2.0, 0.05, accumulate_obs{loss});
  return loss + x[1] * x[1];
}

int main() {
  double p[2] = {2.0, 0.3}, x0[2] = {1.0, -0.2}, dp[2] = {0, 0}, dx0[2] = {0, 0}, fd[2];
  __enzyme_autodiff<void>((void *)trajectory_loss, enzyme_dup, p, dp, enzyme_dup, x0, dx0);
  auto f = [&] { return trajectory_loss(p, x0); };
  fz_fd_grad_of(f, p, 2, fd);
  fz_check_arr("dL/dp (fd)", dp, fd, 2, 1e-6);
  fz_fd_grad_of(f, x0, 2, fd);
  fz_check_arr("dL/dx0 (fd)", dx0, fd, 2, 1e-6);
  return fz_finish();
}
