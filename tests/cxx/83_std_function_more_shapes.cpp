// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// std::function in more of the shapes real code uses, at -O0 too (each goes through
// std::_Any_data's untyped accessor, whose callers type analysis keeps apart: the
// type_info pointer of target_type(), the functor pointer of target() and the captured
// doubles): a copy passed by value (the manager's clone operation), a std::function
// returned from a factory (guaranteed elision, no move), a capture by reference that
// the target writes through, a lambda calling a member function of a captured object,
// and a target too big for the in-place buffer called in a loop. Reverse and forward
// mode. Oracle: central finite differences of the same code. (Moving a std::function —
// std::move, assigning a new target, std::vector<std::function> growing — copies the
// raw storage without knowing its type: tests/errors/std_function_move_O0.cpp.)
#include "fz_cxx.h"
#include <cmath>
#include <functional>

using Fn = std::function<double(double)>;

__attribute__((noinline)) double by_value(Fn f, double x) { return f(x) * f(0.5 * x); }

__attribute__((noinline)) Fn make_scaled(double a, double b) {
  return [a, b](double v) { return a * std::exp(-b * v * v); };
}

struct Spring {
  double k, c;
  double force(double x) const { return -k * x - c * x * x * x; }
};

double copied(double x, double a) {
  Fn f = [a](double v) { return std::sin(a * v); };
  Fn g = f;
  return by_value(g, x) + g(x * x) + f(a);
}

double factory(double x, double a) {
  Fn f = make_scaled(a, 0.3);
  Fn h = make_scaled(x, a);
  return f(x) + h(a) * f(0.5);
}

double by_reference(double x, double a) {
  double acc = 0;
  Fn add = [&acc, a](double v) { acc += a * v * v; return acc; };
  for (int i = 0; i < 3; i++) add(x + i);
  return acc;
}

struct Poly {
  double c[5];
};

double big_target(double x, double a) {
  Poly p{{a, 1.0, a * a, -0.5, 0.1 * a}};
  Fn f = [p](double v) {
    double y = 0;
    for (int i = 4; i >= 0; i--) y = y * v + p.c[i];
    return y;
  };
  double y = x;
  for (int i = 0; i < 4; i++) y = 0.5 * f(y);
  return y;
}

double member(double x, double k) {
  Spring s{k, 0.25};
  Fn f = [s](double v) { return s.force(v); };
  return f(x) + f(2 * x);
}

#define CHECK(fn)                                                                        \
  do {                                                                                   \
    fz_grad2 g = __enzyme_autodiff2((void *)fn, x, a);                                   \
    fz_check(#fn " d/dx", g.d0, fz_fd([&] { return fn(x, a); }, x), 1e-6);               \
    fz_check(#fn " d/da", g.d1, fz_fd([&] { return fn(x, a); }, a), 1e-6);               \
    double t = __enzyme_fwddiff<double>((void *)fn, enzyme_dup, x, 1.0, enzyme_const, a); \
    fz_check(#fn " forward d/dx", t, fz_fd([&] { return fn(x, a); }, x), 1e-6);          \
  } while (0)

int main() {
  fz_seed(83);
  double x = fz_uniform(0.3, 1.2), a = fz_uniform(0.5, 1.5);
  CHECK(copied);
  CHECK(factory);
  CHECK(by_reference);
  CHECK(big_target);
  CHECK(member);
  return fz_finish();
}
