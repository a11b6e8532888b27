// OPT: O0 O1 O2
// VARIANTS: all
// CFLAGS: -std=c++17
// The shapes boost odeint's unoptimized templates have (what `--ad-before-opt` of
// bench/src/*_odeint.cpp needs), without boost: a stepper object of empty members, bools
// and state arrays passed by value (coerced to `{i64, double}`), a CRTP base casting
// `this` to the stepper, several one-element `std::array<double, 1>` members of one
// object each handed to the same `operator[]` with a variable index, functors holding
// references (odeint's `calculate_stage`) among them a reference to a member-less
// right-hand side, and a member-function pointer called through `std::bind` with
// `std::ref` (odeint's resizer). Oracle: finite differences.
#include "fz_cxx.h"
#include <array>
#include <functional>
#include <cmath>

typedef std::array<double, 1> state;

struct algebra {};  // empty: one byte in every object holding it

// x' = -k x (+ a small nonlinearity), a functor without data members.
struct rhs_fn {
  void operator()(const state &x, state &dxdt, double t) const {
    dxdt[0] = -1.3 * x[0] + 0.1 * std::sin(t) * x[0] * x[0];
  }
};

struct resizer {
  bool initialized = false;
  template <class F>
  bool adjust(F f, const state &x) {
    if (!initialized) {
      initialized = true;
      return f(x);
    }
    return false;
  }
};

// A functor holding references, like odeint's calculate_stage.
template <class System>
struct stage_call {
  System &sys;
  const state &x;
  state &tmp;
  state *F;
  double t, dt, a;
  void operator()(int s) const {
    for (int i = 0; i < 1; i++) tmp[i] = x[i] + dt * a * F[s][i];
    sys(tmp, F[s + 1], t + a * dt);
  }
};

template <class Derived>
struct stepper_base {
  algebra alg;
  resizer res;
  state dxdt;
  Derived &self() { return *static_cast<Derived *>(this); }
  bool resize_impl(const state &) { return true; }
  template <class System>
  void do_step(System sys, state &x, double t, double dt) {
    res.adjust(std::bind(&stepper_base::resize_impl, std::ref(*this), std::placeholders::_1), x);
    sys(x, dxdt, t);
    self().step_impl(sys, x, dxdt, t, dt);
  }
};

// Heun's method with its stage arrays as separate members (all std::array<double, 1>).
struct heun : stepper_base<heun> {
  state tmp, F[2];
  template <class System>
  void step_impl(System &sys, state &x, const state &dxdt, double t, double dt) {
    F[0] = dxdt;
    stage_call<System> c{sys, x, tmp, F, t, dt, 1.0};
    c(0);
    for (size_t i = 0; i < x.size(); i++) x[i] += 0.5 * dt * (F[0][i] + F[1][i]);
  }
};

// A plain stepper: an empty member, a bool and a state; passed by value below.
struct euler_stepper {
  algebra alg;
  bool first = true;
  state dxdt;
  template <class System>
  void do_step(System sys, state &x, double t, double dt) {
    first = false;
    sys(x, dxdt, t);
    for (size_t i = 0; i < x.size(); i++) x[i] += dt * dxdt[i];
  }
};

template <class Stepper, class System>
size_t integrate_const(Stepper stepper, System sys, state &x, double t0, double t1, double dt) {
  size_t steps = 0;
  for (double t = t0; t + dt <= t1 + 1e-12; t += dt, steps++) stepper.do_step(sys, x, t, dt);
  return steps;
}

// Both steppers, the second from the first's end point; x(T) for p = {x0, T}.
double run(const double *p) {
  double T = p[1];
  state x = {{p[0]}};
  euler_stepper e;
  integrate_const(e, rhs_fn(), x, 0.0, T, T / 40);
  heun h;
  integrate_const(h, rhs_fn(), x, 0.0, T, T / 25);
  return x[0];
}

int main() {
  fz_seed(362);
  double p[2] = {fz_uniform(0.5, 1.5), fz_uniform(0.8, 1.6)}, dp[2] = {0, 0};
  __enzyme_autodiff<void>((void *)run, enzyme_dup, p, dp);
  fz_check("d/dx0", dp[0], fz_fd([&] { return run(p); }, p[0]), 1e-6);
  fz_check("d/dT", dp[1], fz_fd([&] { return run(p); }, p[1]), 1e-6);
  return fz_finish();
}
