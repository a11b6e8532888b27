// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// -O0 and --ad-before-opt pass since cxx38 (were IGNORE-O0/REF: mismatched activity for the
// virtual destructor called through the vtable under run-time activity; a call through a
// pointer whose possible targets all have IR is now generated under the same checks).
// Recursion and class hierarchies as a new user writes them (sweep20): a recursive
// `std::function<double(double, int)>` that captures itself by reference (a Horner-like
// continued fraction evaluated to depth n), a recursive binary power through a plain
// recursive function, and an expression tree of `std::unique_ptr<Node>` nodes whose base
// class has a virtual destructor and virtual `eval`, built and destroyed inside the
// differentiated function. Oracles: analytic derivatives and finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <memory>

// f(x) = x / (1 + x / (1 + x / (...))) to depth n.
double cfrac(double x, int n) {
  std::function<double(double, int)> rec;
  rec = [&rec](double y, int k) -> double {
    if (k == 0) return y;
    return y / (1.0 + rec(y, k - 1));
  };
  return rec(x, n);
}

double ipow(double x, int k) {
  if (k == 0) return 1.0;
  double h = ipow(x, k / 2);
  return k % 2 ? h * h * x : h * h;
}

struct Node {
  virtual ~Node() = default;
  virtual double eval(const double *v) const = 0;
};
struct Var : Node {
  int i;
  explicit Var(int k) : i(k) {}
  double eval(const double *v) const override { return v[i]; }
};
struct Mul : Node {
  std::unique_ptr<Node> a, b;
  Mul(std::unique_ptr<Node> x, std::unique_ptr<Node> y) : a(std::move(x)), b(std::move(y)) {}
  double eval(const double *v) const override { return a->eval(v) * b->eval(v); }
};
struct Sin : Node {
  std::unique_ptr<Node> a;
  explicit Sin(std::unique_ptr<Node> x) : a(std::move(x)) {}
  ~Sin() override { a.reset(); }
  double eval(const double *v) const override { return std::sin(a->eval(v)); }
};

// sin(v0 * v1) * v2, built and torn down on every call.
double tree(const double *v) {
  std::unique_ptr<Node> e = std::make_unique<Mul>(
      std::make_unique<Sin>(std::make_unique<Mul>(std::make_unique<Var>(0), std::make_unique<Var>(1))),
      std::make_unique<Var>(2));
  return e->eval(v);
}

double both(double x, const double *v) { return cfrac(x, 5) + ipow(x, 7) * tree(v); }

int main() {
  double x = 0.7;
  double dx = __enzyme_autodiff<double>((void *)cfrac, x, enzyme_const, 5);
  auto f = [&]() { return cfrac(x, 5); };
  fz_check("recursive std::function vs FD", dx, fz_fd(f, x), 1e-7);
  // Depth 1: x / (1 + x), derivative 1 / (1 + x)^2.
  fz_check("depth 1 analytic", __enzyme_autodiff<double>((void *)cfrac, x, enzyme_const, 1),
           1.0 / ((1 + x) * (1 + x)), 1e-14);
  fz_check("forward depth 1", __enzyme_fwddiff<double>((void *)cfrac, x, 1.0, enzyme_const, 1),
           1.0 / ((1 + x) * (1 + x)), 1e-14);
  for (int k = 0; k < 9; k++)
    fz_check("ipow analytic", __enzyme_autodiff<double>((void *)ipow, x, enzyme_const, k),
             k ? k * std::pow(x, k - 1) : 0.0, 1e-13);

  double v[3] = {0.4, -1.3, 2.1}, gv[3] = {0, 0, 0};
  __enzyme_autodiff<void>((void *)tree, enzyme_dup, v, gv);
  double c = std::cos(v[0] * v[1]);
  fz_check("tree d/dv0", gv[0], c * v[1] * v[2], 1e-14);
  fz_check("tree d/dv1", gv[1], c * v[0] * v[2], 1e-14);
  fz_check("tree d/dv2", gv[2], std::sin(v[0] * v[1]), 1e-14);

  double gv2[3] = {0, 0, 0};
  double gx = __enzyme_autodiff<double>((void *)both, x, enzyme_dup, v, gv2);
  auto fb = [&]() { return both(x, v); };
  fz_check("both d/dx vs FD", gx, fz_fd(fb, x), 1e-6);
  for (int i = 0; i < 3; i++) fz_check("both d/dv vs FD", gv2[i], fz_fd(fb, v[i]), 1e-6);
  return fz_finish();
}
