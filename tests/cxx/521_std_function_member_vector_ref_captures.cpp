// OPT: O0 O2
// CFLAGS: -std=c++17
// func46: std::function in the shapes a model uses, every lambda capturing pointers or
// references only (what fits `_Any_data` with one type: tests/cxx/355 and 479 hold a
// captured double there and are refused): a class holding a
// `std::function<double(double, double)>` member (a Heun integrator of an ODE whose
// right-hand side captures a scalar by reference and the parameter pointer), a
// `std::vector<std::function<double(double)>>` grown by push_back, and a local captured
// by reference that changes half-way through the run. Oracles: central differences of
// every parameter; forward mode against reverse (dot-product identity).
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <vector>

// A class holding a std::function member, built from a lambda capturing pointers only.
class Integrator {
 public:
  explicit Integrator(std::function<double(double, double)> rhs) : rhs_(std::move(rhs)) {}
  double step(double t, double u, double h) const {
    double k1 = rhs_(t, u);
    double k2 = rhs_(t + h, u + h * k1);
    return u + 0.5 * h * (k1 + k2);
  }
 private:
  std::function<double(double, double)> rhs_;
};

double model(const double *p, int n) {
  double decay = p[0];  // captured by reference below
  Integrator ode([&decay, p](double t, double u) { return -decay * u + p[1] * std::sin(t); });
  std::vector<std::function<double(double)>> terms;
  terms.push_back([p](double u) { return p[2] * u * u; });
  terms.push_back([&decay](double u) { return std::exp(-decay * u); });
  terms.push_back([p, &decay](double u) { return p[3] * std::cos(u) + decay; });
  double u = 1.0, t = 0.0, s = 0.0;
  for (int i = 0; i < n; i++) {
    u = ode.step(t, u, 0.1);
    t += 0.1;
    if (i == n / 2) decay *= 0.5;  // the reference capture sees the change
    for (const auto &f : terms) s += f(u);
  }
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double p[4] = {0.7, 1.1, 0.6, 0.9}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<double>((void *)model, enzyme_dup, p, dp, enzyme_const, 8);
  fz_fd_grad_of([&] { return model(p, 8); }, p, 4, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 4, 1e-6);
  double v[4] = {0.3, -0.2, 0.5, 0.1}, dv[4] = {0.3, -0.2, 0.5, 0.1};
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, dv, enzyme_const, 8);
  double dot = 0;
  for (int i = 0; i < 4; i++) dot += dp[i] * v[i];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
