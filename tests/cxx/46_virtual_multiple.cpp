// OPT: O0 O2
// CFLAGS: -std=c++17
// Virtual calls with multiple inheritance: a class implementing two interfaces, called
// through pointers to each base (the second base's `this` is adjusted, the call goes
// through a thunk), one object duplicated and one constant. Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

struct Source {
  virtual ~Source() = default;
  virtual double emit(double t) const = 0;
};
struct Sink {
  virtual ~Sink() = default;
  virtual double absorb(double v) const = 0;
};
struct Cell : Source, Sink {
  double amp, rate;
  Cell(double a, double r) : amp(a), rate(r) {}
  double emit(double t) const override { return amp * std::sin(rate * t); }
  double absorb(double v) const override { return v * v * rate + amp; }
};

double circuit(const Source *s, const Sink *k, const Sink *k2, double t) {
  double v = s->emit(t);
  return k->absorb(v) + k2->absorb(0.5 * v);
}

int main() {
  fz_seed(346);
  Cell c(1.2, 0.8), dc(0, 0), other(0.5, 2.0);
  double t = fz_uniform(0.2, 1.0);
  const Source *s = &c;
  const Sink *k = &c, *dk = &dc;
  const Source *ds = &dc;
  const Sink *k2 = &other;
  double dt = __enzyme_autodiff<double>((void *)circuit, enzyme_dup, s, ds, enzyme_dup, k, dk,
                                        enzyme_const, k2, enzyme_out, t);
  auto f = [&] { return circuit(&c, &c, &other, t); };
  fz_check("dt", dt, fz_fd(f, t), 1e-6);
  fz_check("damp", dc.amp, fz_fd(f, c.amp), 1e-6);
  fz_check("drate", dc.rate, fz_fd(f, c.rate), 1e-6);
  return fz_finish();
}
