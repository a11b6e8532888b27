// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Polymorphism the way application code holds it: a std::vector<std::shared_ptr<Layer>>
// of derived layers built inside the differentiated function (make_shared: the control
// block and the object in one allocation, atomic reference counts), called through the
// base class's virtual `apply`, a std::unique_ptr<Layer> made inside, and a virtual
// destructor run at scope exit. Parameters are active members read through `this`.
// Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

struct Layer {
  virtual ~Layer() = default;
  virtual double apply(double v) const = 0;
};
struct Scale : Layer {
  double a;
  explicit Scale(double a) : a(a) {}
  double apply(double v) const override { return a * v; }
};
struct Tanh : Layer {
  double apply(double v) const override { return std::tanh(v); }
};
struct Affine : Layer {
  double w, b;
  Affine(double w, double b) : w(w), b(b) {}
  double apply(double v) const override { return w * v + b; }
};

double net(const double *p, double x) {
  std::vector<std::shared_ptr<Layer>> layers;
  layers.push_back(std::make_shared<Scale>(p[0]));
  layers.push_back(std::make_shared<Tanh>());
  layers.push_back(std::make_shared<Affine>(p[1], p[2]));
  auto copy = layers;  // shared ownership: reference counts up and down
  std::unique_ptr<Layer> last = std::make_unique<Affine>(p[3], 0.1);
  double v = x;
  for (const auto &l : copy) v = l->apply(v);
  v = last->apply(std::sin(v));
  return v * v;
}

int main() {
  double p[4] = {0.8, -1.2, 0.3, 1.7}, dp[4] = {0};
  double x = 0.65;
  double dxv = __enzyme_autodiff<double>((void *)net, enzyme_dup, p, dp, x);
  auto f = [&] { return net(p, x); };
  for (int i = 0; i < 4; i++) fz_check("dp", dp[i], fz_fd(f, p[i]), 1e-6);
  fz_check("dx", dxv, fz_fd(f, x), 1e-6);
  return fz_finish();
}
