// OPT: O0 O2
// CFLAGS: -std=c++17
// Functional style from a user's toolbox: a `constexpr` table of stateless lambdas
// converted to function pointers (`+[](double x) {...}`), picked by a run-time index read
// from an integer array; a curried `std::function<std::function<double(double)>(double)>`
// whose inner closure captures the outer argument (an active parameter) by value; and a
// `std::vector<std::function<double(double)>>` pipeline composed with `std::accumulate`.
// Oracle: the analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

using Fn = double (*)(double);
constexpr Fn table[] = {
    +[](double x) { return x * x; },
    +[](double x) { return std::sin(x); },
    +[](double x) { return std::exp(0.5 * x); },
};

double model(const double *p, const int *pick, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += table[pick[i]](p[i]);
  std::function<std::function<double(double)>(double)> scale = [](double a) {
    return std::function<double(double)>([a](double x) { return a * x + a * a; });
  };
  std::function<double(double)> f = scale(p[0]);
  std::vector<std::function<double(double)>> pipeline = {
      f, [](double x) { return std::tanh(x); }, scale(p[1])};
  double y = std::accumulate(pipeline.begin(), pipeline.end(), p[2],
                             [](double acc, const std::function<double(double)> &g) {
                               return g(acc);
                             });
  return s + y;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double p[n] = {0.6, -0.4, 0.9, 0.3}, dp[n] = {0}, fd[n];
  int pick[n] = {2, 0, 1, 1};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, pick, enzyme_const,
                          n);
  fz_fd_grad_of([&] { return model(p, pick, n); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  // y = b * tanh(a * c + a^2) + b^2 with a = p0, b = p1, c = p2
  double a = p[0], b = p[1], c = p[2], u = a * c + a * a, t = std::tanh(u), sech2 = 1 - t * t;
  double want[n] = {0.5 * std::exp(0.5 * a) + b * sech2 * (c + 2 * a), 2 * b + t + 2 * b,
                    std::cos(c) + b * sech2 * a, std::cos(p[3])};
  fz_check_arr("d/dp analytic", dp, want, n, 1e-12);
  double v[n] = {0.1, 0.5, -0.3, 0.8}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, pick,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
