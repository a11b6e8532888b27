// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at the copies of `generic_rk_algorithm`'s stage coefficient arrays (`stage_vector::do_insertion`, fehlberg78's 13 stages) and of `modified_midpoint`'s state at -O0; -O1..-O3 pass
// IGNORE-REF: as at -O0
// boost::numeric::odeint steppers besides runge_kutta4 (sweep22): a Lotka-Volterra
// system with active rates, stepped by hand-written fixed-step loops of
// `runge_kutta_cash_karp54` (`do_step` with an error estimate discarded),
// `runge_kutta_dopri5` (FSAL `do_step`), `runge_kutta_fehlberg78`, `modified_midpoint`
// and `euler`, on a `std::array<double, 2>` state; the system is a functor whose members
// are the active rates. Oracles: finite differences of each stepper's final state, the
// steppers against each other (the same ODE: dopri5, cash-karp and fehlberg78 agree to
// their truncation error), and forward vs reverse.
#include "fz_cxx.h"
#include <array>
#include <boost/numeric/odeint.hpp>

using state = std::array<double, 2>;
namespace ode = boost::numeric::odeint;

struct lotka {
  double a, b, c, d;
  void operator()(const state &x, state &dxdt, double) const {
    dxdt[0] = a * x[0] - b * x[0] * x[1];
    dxdt[1] = -c * x[1] + d * x[0] * x[1];
  }
};

template <class Stepper>
static state run(Stepper st, const double *p, int steps) {
  lotka sys{p[0], p[1], p[2], p[3]};
  state x = {1.0, 0.5};
  double t = 0, dt = 0.05;
  for (int k = 0; k < steps; k++, t += dt) st.do_step(sys, x, t, dt);
  return x;
}

double loss_ck(const double *p) {
  state x = run(ode::runge_kutta_cash_karp54<state>(), p, 40);
  return x[0] + 2 * x[1];
}
double loss_dopri(const double *p) {
  state x = run(ode::runge_kutta_dopri5<state>(), p, 40);
  return x[0] + 2 * x[1];
}
double loss_f78(const double *p) {
  state x = run(ode::runge_kutta_fehlberg78<state>(), p, 40);
  return x[0] + 2 * x[1];
}
double loss_mid(const double *p) {
  ode::modified_midpoint<state> mm;
  mm.set_steps(4);
  state x = run(mm, p, 40);
  return x[0] * x[1];
}
double loss_euler(const double *p) {
  state x = run(ode::euler<state>(), p, 200);
  return x[0] - x[1];
}

template <double (*F)(const double *)>
static void check(const char *name, double *p, double *g) {
  double dp[4] = {0};
  __enzyme_autodiff<void>((void *)F, enzyme_dup, p, dp);
  double fd[4];
  fz_fd_grad_of([&] { return F(p); }, p, 4, fd);
  char buf[96];
  snprintf(buf, sizeof buf, "%s: d/dp vs finite differences", name);
  fz_check_arr(buf, dp, fd, 4, 1e-6);
  double t[4] = {0.3, -0.5, 0.2, 0.7}, dot = 0;
  for (int i = 0; i < 4; i++) dot += t[i] * dp[i], g[i] = dp[i];
  double jt = __enzyme_fwddiff<double>((void *)F, enzyme_dup, p, t);
  snprintf(buf, sizeof buf, "%s: forward . t vs reverse", name);
  fz_check(buf, jt, dot, 1e-9);
}

int main() {
  double p[4] = {1.1, 0.4, 0.9, 0.3};
  double g[5][4];
  check<loss_ck>("cash_karp54", p, g[0]);
  check<loss_dopri>("dopri5", p, g[1]);
  check<loss_f78>("fehlberg78", p, g[2]);
  check<loss_mid>("modified_midpoint", p, g[3]);
  check<loss_euler>("euler", p, g[4]);
  fz_check_arr("dopri5 vs cash_karp54 (same ODE)", g[1], g[0], 4, 1e-6);
  fz_check_arr("fehlberg78 vs dopri5 (same ODE)", g[2], g[1], 4, 1e-6);
  return fz_finish();
}
