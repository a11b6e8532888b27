// OPT: O0 O2 O3
// CFLAGS: -std=c++17
// std::function in the shapes real code uses it, inside the differentiated function:
// a lambda capturing two doubles by value (stored in place in _Any_data), a copy of a
// std::function (the manager's clone operation copies the captures), a capture too big
// for the in-place buffer (heap-stored functor), and forward mode through a
// std::function. Oracle: central finite differences. (A plain function pointer wrapped
// in a std::function is not here: its manager returns either the type_info global or
// the stored pointer through one phi, a mismatched-activity error until the run-time
// activity mode exists.)
#include "fz_cxx.h"
#include <cmath>
#include <functional>

using Fn = std::function<double(double)>;

__attribute__((noinline)) double apply_n(const Fn &f, double x, int n) {
  for (int i = 0; i < n; i++) x = 0.5 * x + 0.1 * f(x);
  return x;
}

// Two captured doubles, in place; the copy goes through the manager's clone operation.
double two_captures(double x, double a, double b) {
  Fn f = [a, b](double v) { return a * std::sin(v) + b * v; };
  Fn g = f;
  return apply_n(g, x, 5) + apply_n(f, x * a, 3);
}

struct Big {
  double c[4];
};

// A capture of 32 bytes: the functor lives on the heap (_M_create allocates it).
double heap_functor(double x, double a) {
  Big big{{a, 2 * a, a * a, 1.5}};
  Fn f = [big](double v) { return big.c[0] * v + big.c[1] * std::cos(v) + big.c[2] * big.c[3]; };
  return apply_n(f, x, 4);
}

int main() {
  fz_seed(81);
  double x = fz_uniform(0.2, 1.0), a = fz_uniform(0.5, 1.5), b = fz_uniform(-1, 1);

  double dx = __enzyme_autodiff<double>((void *)two_captures, enzyme_out, x, enzyme_const, a,
                                        enzyme_const, b);
  fz_check("two captures d/dx", dx, fz_fd([&] { return two_captures(x, a, b); }, x), 1e-6);
  fz_grad2 g = __enzyme_autodiff2((void *)heap_functor, x, a);
  fz_check("heap functor d/dx", g.d0, fz_fd([&] { return heap_functor(x, a); }, x), 1e-6);
  fz_check("heap functor d/da", g.d1, fz_fd([&] { return heap_functor(x, a); }, a), 1e-6);
  double t = __enzyme_fwddiff<double>((void *)heap_functor, enzyme_dup, x, 1.0, enzyme_const, a);
  fz_check("forward heap functor d/dx", t, fz_fd([&] { return heap_functor(x, a); }, x), 1e-6);
  return fz_finish();
}
