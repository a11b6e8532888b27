// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at `std::function`'s move constructor and `std::swap<_Any_data>` (the member assignments `m.forcing = [phase, p](...)`: a lambda capturing a double and a pointer is stored in place in `_Any_data`, whose 16 bytes hold a functor pointer for the other members: conflicting uses); cxx/108's -O0 refusal of a std::function capturing a double. The diagnostic (since func46 naming `std::function`'s in-place storage in its message) says in its help what to change (capture the double by reference, `[&phase, p]`, so every lambda stored there holds pointers only: that variant passes at -O0). -O1/-O2 pass; no wrong number. Per-call-site types (cxxmisc40) would need a context-sensitive type analysis: the swap is one function for every std::function of this signature
// IGNORE-REF: the --ad-before-opt trial gives -O0's errors (see IGNORE-O0)
// A model whose terms are `std::function<double(double, const double *)>` members of a
// struct (a drift, a reaction and a forcing term built from lambdas capturing parameters
// by value and by reference), called in a time-stepping loop; a vector of further
// `std::function` penalties summed at the end. Oracle: central differences of every
// parameter and of the initial state.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <vector>

struct Model {
  std::function<double(double, const double *)> drift;
  std::function<double(double, const double *)> reaction;
  std::function<double(double)> forcing;
  std::vector<std::function<double(double)>> penalties;
};

double simulate(const double *p, double u0) {
  double scale = p[2];
  Model m;
  m.drift = [](double u, const double *q) { return -q[0] * u; };
  m.reaction = [&scale](double u, const double *q) { return q[1] * std::sin(u) * scale; };
  double phase = 0.3;
  m.forcing = [phase, p](double t) { return p[3] * std::cos(t + phase); };
  m.penalties.push_back([](double u) { return u * u; });
  m.penalties.push_back([p](double u) { return p[0] * std::exp(-u); });
  double u = u0, t = 0.0;
  const double h = 0.05;
  for (int i = 0; i < 40; i++) {
    double du = m.drift(u, p) + m.reaction(u, p) + m.forcing(t);
    u += h * du;
    t += h;
    if (i == 19) scale *= 0.5;  // the captured-by-reference scalar changes mid-run
  }
  double s = 0.0;
  for (const auto &pen : m.penalties) s += pen(u);
  return s;
}

extern int enzyme_dup, enzyme_out;

int main() {
  double p[4] = {0.8, 1.3, 0.9, 0.4}, dp[4] = {0}, u0 = 0.6, fd[4];
  double du0 = __enzyme_autodiff<double>((void *)simulate, enzyme_dup, p, dp, enzyme_out, u0);
  fz_fd_grad_of([&] { return simulate(p, u0); }, p, 4, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 4, 1e-6);
  fz_check("d/du0 finite differences", du0, fz_fd([&] { return simulate(p, u0); }, u0), 1e-6);
  return fz_finish();
}
