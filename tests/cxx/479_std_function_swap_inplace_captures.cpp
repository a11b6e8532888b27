// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE: cannot-deduce-type at every level ("cannot deduce the type of the memory copied here (conflicting uses ...): it is a `std::function`'s in-place storage (`std::_Any_data`)", with the help to capture by reference, since func46; the same program with `[&a, p]`, `[&b, p]`, `[p]` captures passes at -O0 and is refused at -O2 in std::vector<std::function>::_M_realloc_insert, where before func46 it gave exchanged adjoints: tests/errors/func46_std_function_vector_reverse_O2.cpp): `std::swap(f, g)` of two std::function copies their `_Any_data` (16 bytes) through a temporary, and a std::vector<std::function> grows by moving them (`_M_realloc_insert`). Each lambda's `_M_manager(dest, src, op)` stores a double capture into `dest` for `__clone_functor` and a functor pointer for `__get_functor_ptr`; type analysis is one fact per parameter, so every `_Any_data` the managers touch becomes {0: Double and Pointer}. A sound fix needs per-call-site facts for the managers (op is a constant at each call) or a typed swap of mixed pointer/float bytes; the member `h.swap(g)` alone passes at -O2 (cxx/477 covers moves and reassignment)
// std::function objects holding lambdas whose active captures fit in place (a double and
// a pointer: 16 bytes, stored inside `_Any_data`) swapped with `std::swap` and the member
// `swap`, moved (construction and assignment), reassigned with a new lambda, and kept in
// a std::vector that is reversed, all inside the differentiated function.
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
  std::swap(f, g);
  double s = f(0.7) + 2.0 * g(0.4);
  Fn h = std::move(f);  // f is empty now
  f = [c = p[4], p](double x) { return c * std::exp(-x) + p[0] * p[1]; };
  h.swap(g);
  s += h(1.1) - 0.5 * g(0.2) + f(0.3);
  std::vector<Fn> v;
  v.push_back(std::move(f));
  v.push_back(h);
  v.push_back(g);
  std::reverse(v.begin(), v.end());
  for (int k = 0; k < n; k++) s += (k + 1) * v[k % 3](0.1 * k);
  g = v[0];
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
