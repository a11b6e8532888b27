// OPT: O0 O2
// CFLAGS: -std=c++17
// Pointers to member functions: a table of `double (Model::*)(double) const` (non-virtual
// members and a virtual one, whose pointer dispatches through the vtable), picked by a
// constant index array and called as `(m.*fp)(x)` and through `std::invoke`; a pointer
// to a data member (`double Model::*`) selects the parameter updated. Oracle: the
// analytic gradient and central differences.
#include "fz_cxx.h"
#include <cmath>
#include <functional>

struct Model {
  double a, b;
  Model(double a_, double b_) : a(a_), b(b_) {}
  virtual ~Model() = default;
  double lin(double x) const { return a * x + b; }
  double quad(double x) const { return a * x * x - b; }
  virtual double wave(double x) const { return a * std::sin(b * x); }
};

struct Damped : Model {
  using Model::Model;
  double wave(double x) const override { return a * std::exp(-b * x); }
};

using Term = double (Model::*)(double) const;

__attribute__((noinline)) double run(const Model &m, const Term *terms, const int *pick, int k,
                                     double x) {
  double s = 0;
  for (int i = 0; i < k; i++) s += (m.*terms[pick[i]])(x) + 0.5 * std::invoke(terms[pick[i]], m, 2 * x);
  return s;
}

double fit(const double *p, const int *pick, int k) {
  static const Term terms[3] = {&Model::lin, &Model::quad, &Model::wave};
  Damped m(p[0], p[1]);
  double Model::*field = pick[0] == 0 ? &Model::a : &Model::b;
  m.*field += p[2];
  return run(m, terms, pick, k, 0.7);
}

extern int enzyme_dup, enzyme_const;

int main() {
  double p[3] = {1.3, 0.6, -0.2}, dp[3] = {0}, fd[3];
  int pick[4] = {0, 1, 2, 2};
  __enzyme_autodiff<void>((void *)fit, enzyme_dup, p, dp, enzyme_const, pick, enzyme_const, 4);
  double a = p[0] + p[2], b = p[1], x = 0.7;
  auto dterm_da = [&](double t) { return t + t * t + 2 * std::exp(-b * t); };
  auto dterm_db = [&](double t) { return 1 - 1 - 2 * a * t * std::exp(-b * t); };
  double ga = dterm_da(x) + 0.5 * dterm_da(2 * x), gb = dterm_db(x) + 0.5 * dterm_db(2 * x);
  fz_check("d/dp0", dp[0], ga, 1e-12);
  fz_check("d/dp1", dp[1], gb, 1e-12);
  fz_check("d/dp2", dp[2], ga, 1e-12);
  fz_fd_grad_of([&] { return fit(p, pick, 4); }, p, 3, fd);
  fz_check_arr("finite differences", dp, fd, 3, 1e-6);
  return fz_finish();
}
