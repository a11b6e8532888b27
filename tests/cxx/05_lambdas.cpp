// OPT: O0 O2
// CFLAGS: -std=c++17
// Lambdas inside the differentiated function: captures by reference and by value, a
// mutable lambda with state, a generic lambda, an immediately invoked lambda, a lambda
// handed to a function template. And a lambda as the function being differentiated,
// through <enzyme/enzyme>. Oracles: finite differences and analytic.
#include "fz_cxx.h"
#include <enzyme/enzyme>
#include <cmath>

template <typename F>
double integrate(F f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; i++) s += f(a + i * h);
  return s * h;
}

double loss(const double *p, int n) {
  double scale = p[0];
  auto shifted = [&, scale](double x) { return scale * std::sin(x + p[1]); };
  auto generic = [](auto a, auto b) { return a * b + b; };
  double acc = 0;
  auto add = [&acc](double v) mutable { acc += v; };
  for (int i = 0; i < n; i++) add(generic(p[i], shifted(p[i])));
  double area = integrate([&](double x) { return p[2] * x * x + shifted(x); }, 0.0, 1.0, 16);
  double once = [&] { return p[3] * p[3]; }();
  return acc + area + once;
}

int main() {
  fz_seed(303);
  const int n = 5;
  double p[n], dp[n], fd[n];
  fz_fill(p, n, -1, 1);
  fz_zero(dp, n);
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, n);
  fz_fd_grad_of([&] { return loss(p, n); }, p, n, fd);
  fz_check_arr("dp", dp, fd, n, 1e-6);

  double k = 1.5;
  auto g = [k](double x, double y) { return k * x * x * y + std::exp(y); };
  double x = 0.8, y = -0.3;
  auto r = enzyme::autodiff<enzyme::Reverse>(g, enzyme::Active{x}, enzyme::Active{y});
  fz_check("dg/dx", enzyme::get<0>(enzyme::get<0>(r)), 2 * k * x * y, 1e-12);
  fz_check("dg/dy", enzyme::get<1>(enzyme::get<0>(r)), k * x * x + std::exp(y), 1e-12);
  return fz_finish();
}
