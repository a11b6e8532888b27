// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A model class whose behaviour is held in `std::function` members set in its
// constructor (a lambda capturing `this`, one capturing a parameter by value, a plain
// function), `std::mem_fn` of a member function applied over a vector of objects,
// `std::bind` with placeholders binding an active member, and `std::invoke` of a
// member-function pointer and of a data-member pointer. The object is built inside the
// differentiated function from the inputs. Oracle: central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

static double softplus(double z) { return std::log1p(std::exp(z)); }

class Neuron {
 public:
  Neuron(double w, double b, double slope)
      : w_(w), b_(b),
        pre_([this](double x) { return w_ * x + b_; }),
        act_(softplus),
        scale_([slope](double y) { return slope * y; }) {}
  Neuron(const Neuron &) = delete;
  double out(double x) const { return scale_(act_(pre_(x))); }
  double weight() const { return w_; }
  double w_, b_;

 private:
  std::function<double(double)> pre_, act_, scale_;
};

struct Term {
  double c, p;
  double eval(double x) const { return c * std::pow(x, p); }
};

double model(const double *q, int n) {
  Neuron a(q[0], q[1], 1.5), b(q[2], -q[1], 0.5);
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double x = 0.2 * i - 0.5;
    acc += a.out(x) * b.out(x + 0.1);
  }
  std::vector<Term> terms{{q[0], 2.0}, {q[2], 3.0}, {q[3], 1.5}};
  auto ev = std::mem_fn(&Term::eval);
  for (const Term &t : terms) acc += ev(t, 1.3);
  auto shifted = std::bind(&Term::eval, std::placeholders::_1, q[3]);
  acc += shifted(terms[0]) + shifted(terms[1]);
  acc += std::invoke(&Neuron::weight, a) * std::invoke(&Term::c, terms[2]);
  auto wsum = std::accumulate(terms.begin(), terms.end(), 0.0,
                              [](double s, const Term &t) { return s + t.c * t.c; });
  return acc + wsum;
}

int main() {
  const int n = 6;
  double q[4] = {0.8, -0.3, 1.1, 0.6}, dq[4] = {0}, want[4];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, q, dq, enzyme_const, n);
  fz_fd_grad_of([&] { return model(q, n); }, q, 4, want);
  fz_check_arr("model grad", dq, want, 4, 1e-6);
  return fz_finish();
}
