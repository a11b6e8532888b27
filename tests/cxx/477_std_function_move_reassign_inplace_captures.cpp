// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at `std::swap<std::_Any_data>` and std::function's move constructor (the 16 bytes of `_Any_data` hold the lambda's double capture in place, and a functor pointer where the same manager answers `__get_functor_ptr`: conflicting uses in a context-insensitive type analysis; cxx/355's -O0 refusal)
// IGNORE-O1: cannot-deduce-type in `run` at the copy of `_Any_data` (`g = h`; the managers are not inlined at -O1, so their `dest` parameter links the in-place double with a functor pointer)
// IGNORE-REF: the --ad-before-opt trial gives -O0's errors
// std::function objects holding lambdas whose active captures fit in place (a double and
// a pointer: 16 bytes, stored inside `_Any_data`) moved (construction), reassigned with a
// new lambda and copy-assigned, then called in a loop, all inside the differentiated
// function (f41: passes at -O2/-O3; cxx/479 adds swaps and a vector of them, refused).
// Oracles: central differences of every parameter; forward mode against reverse (dot).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

using Fn = std::function<double(double)>;

double run(const double *p, int n) {
  double a = p[0], b = p[1];
  Fn f = [a, p](double x) { return a * std::sin(x) + p[2] * x; };
  Fn g = [b, p](double x) { return b * x * x - p[3]; };
  double s = f(0.7) + 2.0 * g(0.4);
  Fn h = std::move(f);  // f is empty now
  f = [c = p[4], p](double x) { return c * std::exp(-x) + p[0] * p[1]; };
  g = h;  // copy assignment: both hold [a, p]
  s += h(1.1) - 0.5 * g(0.2) + f(0.3);
  for (int k = 0; k < n; k++) s += (k + 1) * (k % 2 ? f : g)(0.1 * k);
  return s * g(0.5);
}

extern int enzyme_dup, enzyme_const;

int main() {
  fz_seed(477);
  double p[5], dp[5] = {0}, fd[5], v[5], dv[5];
  fz_fill(p, 5, 0.5, 1.5);
  __enzyme_autodiff<double>((void *)run, enzyme_dup, p, dp, enzyme_const, 6);
  fz_fd_grad_of([&] { return run(p, 6); }, p, 5, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 5, 1e-6);
  fz_fill(v, 5, -1, 1);
  for (int i = 0; i < 5; i++) dv[i] = v[i];
  double jv = __enzyme_fwddiff<double>((void *)run, enzyme_dup, p, dv, enzyme_const, 6);
  double dot = 0;
  for (int i = 0; i < 5; i++) dot += dp[i] * v[i];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
