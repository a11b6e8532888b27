// OPT: O0 O1 O2 O3
// A processing pipeline of `std::function<double(double)>` stages stored in a
// `std::array` (lambdas capturing parameters by value, a free function, a functor with
// state), composed by a recursive `compose` lambda helper and applied to every sample with
// `std::transform` into a `std::vector`; a mean-squared error against targets with
// `std::inner_product`. The stage parameters are the differentiated inputs (a `double *`
// read into the captures). Oracle: central finite differences and the analytic chain rule.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

static double softplus(double x) { return std::log1p(std::exp(x)); }

struct Affine {
  double a, b;
  double operator()(double x) const { return a * x + b; }
};

double mse(const double *th, const double *xs, const double *ys, int n) {
  std::array<std::function<double(double)>, 4> stages = {
      Affine{th[0], th[1]},
      [k = th[2]](double x) { return std::tanh(k * x); },
      softplus,
      [s = th[3]](double x) { return s * x * x; },
  };
  std::function<double(double)> f = [&](double x) {
    for (auto &st : stages) x = st(x);
    return x;
  };
  std::vector<double> out(n);
  std::transform(xs, xs + n, out.begin(), f);
  std::vector<double> err(n);
  std::transform(out.begin(), out.end(), ys, err.begin(), std::minus<double>());
  return std::inner_product(err.begin(), err.end(), err.begin(), 0.0) / n;
}

int main() {
  const int n = 7;
  double xs[n], ys[n];
  fz_seed(141);
  fz_fill(xs, n, -1.5, 1.5);
  fz_fill(ys, n, 0.0, 1.0);
  double th[4] = {0.9, -0.2, 1.3, 0.7}, dth[4] = {0}, fd[4], want[4] = {0};
  __enzyme_autodiff<void>((void *)mse, enzyme_dup, th, dth, enzyme_const, xs, enzyme_const, ys,
                          enzyme_const, n);
  fz_fd_grad_of([&] { return mse(th, xs, ys, n); }, th, 4, fd);
  for (int i = 0; i < n; i++) {
    double u = th[0] * xs[i] + th[1], t = std::tanh(th[2] * u), sp = std::log1p(std::exp(t));
    double o = th[3] * sp * sp, e = o - ys[i];
    double dsp = std::exp(t) / (1 + std::exp(t)), dt = 1 - t * t;
    double dO_dt = th[3] * 2 * sp * dsp;
    double dO_du = dO_dt * dt * th[2];
    want[0] += 2 * e * dO_du * xs[i] / n;
    want[1] += 2 * e * dO_du / n;
    want[2] += 2 * e * dO_dt * dt * u / n;
    want[3] += 2 * e * sp * sp / n;
  }
  fz_check_arr("reverse vs analytic", dth, want, 4, 1e-10);
  fz_check_arr("reverse vs fd", dth, fd, 4, 1e-6);
  return fz_finish();
}
