// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// C++ shapes around an active computation: a class hierarchy with a virtual destructor
// deleted through a base pointer, `std::array` of structs, `std::optional` returned and
// tested, a lambda passed to a function template, an exception that can be thrown (an
// invalid-argument check) but is not on the differentiated path, and a `try`/`catch`
// around the computation. Oracle: central finite differences and analytic values.
#include "fz_cxx.h"
#include <array>
#include <memory>
#include <optional>
#include <stdexcept>

struct Shape {
  virtual ~Shape() {}
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double k;
  explicit Square(double k) : k(k) {}
  ~Square() override {}
  double area(double s) const override { return k * s * s; }
};
struct Circle : Shape {
  double area(double s) const override { return 3.0 * s * s * s; }
};

struct Particle { double pos, vel; int id; };

static std::optional<double> checked_sqrt(double v) {
  if (v < 0) return std::nullopt;
  return std::sqrt(v);
}

template <typename F>
double apply_all(const std::array<Particle, 3> &ps, F f) {
  double s = 0;
  for (const auto &p : ps) s += f(p);
  return s;
}

static double must_be_positive(double v) {
  if (!(v > 0)) throw std::invalid_argument("must be positive");
  return std::log(v);
}

double model(const double *x) {
  std::unique_ptr<Shape> a(new Square(x[0]));
  Shape *b = new Circle();
  double s = a->area(x[1]) + b->area(x[2]);
  delete b;
  std::array<Particle, 3> ps{{{x[0], x[1], 0}, {x[1], x[2], 1}, {x[2], x[0], 2}}};
  double w = 2.0;
  s += apply_all(ps, [w](const Particle &p) { return w * p.pos * p.vel + p.id; });
  if (auto r = checked_sqrt(x[0] * x[0] + 1.0)) s += *r;
  if (auto r = checked_sqrt(-1.0 - x[1] * x[1])) s += 100 * *r;
  try {
    s += must_be_positive(x[2] * x[2] + 0.5);
  } catch (const std::exception &) {
    s = -1;
  }
  return s;
}

int main() {
  double x[3] = {0.7, -1.3, 0.4}, dx[3] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx);
  auto f = [&] { return model(x); };
  for (int i = 0; i < 3; i++) fz_check("model dx", dx[i], fz_fd(f, x[i]), 1e-6);
  /* s = x0 x1^2 + 3 x2^3 + 2 (x0 x1 + x1 x2 + x2 x0) + 3 + sqrt(x0^2 + 1) + log(x2^2 + 1/2) */
  double x0 = x[0], x1 = x[1], x2 = x[2];
  fz_check("dx0 analytic", dx[0], x1 * x1 + 2 * (x1 + x2) + x0 / std::sqrt(x0 * x0 + 1), 1e-10);
  fz_check("dx1 analytic", dx[1], 2 * x0 * x1 + 2 * (x0 + x2), 1e-10);
  fz_check("dx2 analytic", dx[2], 9 * x2 * x2 + 2 * (x1 + x0) + 2 * x2 / (x2 * x2 + 0.5), 1e-10);
  return fz_finish();
}
