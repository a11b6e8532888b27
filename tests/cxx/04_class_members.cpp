// OPT: O0 O2
// CFLAGS: -std=c++17
// Classes: constructors, private state, const and non-const member functions calling
// each other, a static member function and a static data member, a member function
// differentiated through a free wrapper, and an object passed by pointer with a shadow
// object (enzyme_dup on `this`-like data). Oracles: analytic and finite differences.
#include "fz_cxx.h"
#include <cmath>

class Oscillator {
 public:
  Oscillator(double k, double m) : k_(k), m_(m) {}
  double omega() const { return std::sqrt(k_ / m_); }
  double energy(double x, double v) const { return 0.5 * k_ * x * x + 0.5 * m_ * v * v; }
  void step(double &x, double &v, double dt) const {
    v -= dt * k_ / m_ * x;
    x += dt * v;
  }
  static double damping() { return damp_; }
  double k_, m_;

 private:
  static double damp_;
};
double Oscillator::damp_ = 0.99;

// Energy after `steps` symplectic Euler steps; the oscillator comes by pointer.
double final_energy(const Oscillator *o, double x, double v, int steps) {
  for (int s = 0; s < steps; s++) {
    o->step(x, v, 0.05);
    v *= Oscillator::damping();
  }
  return o->energy(x, v) + o->omega();
}

int main() {
  fz_seed(302);
  Oscillator o(fz_uniform(1, 2), fz_uniform(0.5, 1.5)), d_o(0, 0);
  double x = fz_uniform(-1, 1), v = fz_uniform(-1, 1);
  const int steps = 25;
  fz_grad2 g = __enzyme_autodiff2((void *)final_energy, enzyme_dup, &o, &d_o, enzyme_out, x,
                                  enzyme_out, v, enzyme_const, steps);
  auto f = [&] { return final_energy(&o, x, v, steps); };
  fz_check("dx", g.d0, fz_fd(f, x), 1e-6);
  fz_check("dv", g.d1, fz_fd(f, v), 1e-6);
  fz_check("dk", d_o.k_, fz_fd(f, o.k_), 1e-6);
  fz_check("dm", d_o.m_, fz_fd(f, o.m_), 1e-6);
  return fz_finish();
}
