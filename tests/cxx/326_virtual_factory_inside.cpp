// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Polymorphism created inside the differentiated function: a factory returning
// `std::unique_ptr<Term>` chosen by an integer code read from constant data, a
// `std::vector<std::unique_ptr<Term>>` of heterogeneous terms each holding active
// parameters, virtual `evaluate()` through the base pointer, a virtual destructor, a
// derived class calling its base's implementation (`Base::evaluate`), and a virtual
// `scale()` picking one type out (`dynamic_cast` of an active object is
// tests/cxx/340). Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Term {
  virtual ~Term() = default;
  virtual double evaluate(double t) const = 0;
  virtual double scale() const { return 0.0; }
};
struct Quadratic : Term {
  double a, b;
  Quadratic(double a_, double b_) : a(a_), b(b_) {}
  double evaluate(double t) const override { return a * t * t + b; }
};
struct Damped : Quadratic {
  double k;
  Damped(double a_, double b_, double k_) : Quadratic(a_, b_), k(k_) {}
  double evaluate(double t) const override { return std::exp(-k * t) * Quadratic::evaluate(t); }
};
struct Wave : Term {
  double amp, freq;
  Wave(double a, double f) : amp(a), freq(f) {}
  double evaluate(double t) const override { return amp * std::sin(freq * t); }
  double scale() const override { return amp * freq; }
};

static std::unique_ptr<Term> make_term(int code, const double *p) {
  switch (code) {
    case 0: return std::make_unique<Quadratic>(p[0], p[1]);
    case 1: return std::make_unique<Damped>(p[0], p[1], p[2]);
    default: return std::make_unique<Wave>(p[1], p[2]);
  }
}

double total(const double *p, const int *codes, int m) {
  std::vector<std::unique_ptr<Term>> terms;
  for (int i = 0; i < m; i++) terms.push_back(make_term(codes[i], p + i));
  double s = 0;
  for (int k = 0; k < 8; k++) {
    double t = 0.25 * k;
    for (const auto &term : terms) s += term->evaluate(t);
  }
  for (const auto &term : terms) s += term->scale();
  return s;
}

int main() {
  const int m = 5;
  double p[m + 2] = {0.7, -0.3, 1.2, 0.45, -0.8, 0.6, 0.9}, dp[m + 2] = {0}, want[m + 2];
  const int codes[m] = {0, 1, 2, 1, 2};
  __enzyme_autodiff<void>((void *)total, enzyme_dup, p, dp, enzyme_const, codes, enzyme_const, m);
  fz_fd_grad_of([&] { return total(p, codes, m); }, p, m + 2, want);
  fz_check_arr("total grad", dp, want, m + 2, 1e-6);
  return fz_finish();
}
