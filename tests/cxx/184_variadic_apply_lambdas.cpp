// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Modern C++ call shapes (sweep20): a variadic template with a fold expression
// differentiated at one instantiation (`weighted<double, double, double>`: three active
// scalars, the adjoints returned as a struct), `std::apply` of a lambda over a
// `std::tuple` built inside, a captureless lambda passed as `+[](double) {...}` (its
// function pointer), a generic lambda (`auto` parameters) instantiated for double,
// `std::invoke` of a member function pointer, and `constexpr` helpers. Oracles: analytic
// derivatives and finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <tuple>

template <typename... T>
double weighted(T... xs) {
  int k = 0;
  return ((++k * xs * xs) + ...);  // 1 a^2 + 2 b^2 + 3 c^2
}

constexpr double half(double x) { return 0.5 * x; }

struct Scaler {
  double k;
  double apply(double x) const { return k * std::sinh(x); }
};

double tupled(double a, double b) {
  auto t = std::make_tuple(a, b, half(a * b));
  return std::apply([](double x, double y, double z) { return x * y + std::exp(z); }, t);
}

double invoked(double x) {
  Scaler s{2.5};
  auto gen = [](auto u, auto v) { return u * v + std::cos(u); };
  return std::invoke(&Scaler::apply, s, x) + gen(x, 3.0);
}

struct G3 {
  double a, b, c;
};
struct G2 {
  double a, b;
};

int main() {
  double a = 0.7, b = -1.2, c = 2.1;
  G3 g = __enzyme_autodiff<G3>((void *)weighted<double, double, double>, a, b, c);
  fz_check("fold d/da", g.a, 2 * a, 1e-15);
  fz_check("fold d/db", g.b, 4 * b, 1e-15);
  fz_check("fold d/dc", g.c, 6 * c, 1e-15);

  G2 t = __enzyme_autodiff<G2>((void *)tupled, a, b);
  double e = std::exp(0.5 * a * b);
  fz_check("apply d/da", t.a, b + 0.5 * b * e, 1e-14);
  fz_check("apply d/db", t.b, a + 0.5 * a * e, 1e-14);

  auto sq = +[](double x) { return x * x * std::log(x); };
  double x = 1.7;
  fz_check("unary-plus lambda", __enzyme_autodiff<double>((void *)sq, x),
           2 * x * std::log(x) + x, 1e-14);
  fz_check("unary-plus lambda forward", __enzyme_fwddiff<double>((void *)sq, x, 1.0),
           2 * x * std::log(x) + x, 1e-14);

  double di = __enzyme_autodiff<double>((void *)invoked, x);
  fz_check("invoke + generic lambda", di, 2.5 * std::cosh(x) + 3.0 - std::sin(x), 1e-13);
  auto f = [&]() { return invoked(x); };
  fz_check("invoke vs FD", di, fz_fd(f, x), 1e-7);
  return fz_finish();
}
