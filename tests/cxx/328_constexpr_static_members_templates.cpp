// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// Compile-time helpers and class-level constants in differentiated templates:
// `static constexpr` coefficient arrays (Gauss-Legendre nodes and weights as class
// members), `constexpr` functions evaluated both at compile time (`static_assert`) and at
// run time on active values, `consteval` sizes, `if constexpr` on the scalar type,
// `std::numbers::pi_v<T>`, a `static` mutable member counting calls (inactive), and the
// same class template instantiated at `float` and `double`. Oracle: analytic integrals.
#include "fz_cxx.h"
#include <cmath>
#include <numbers>

extern int enzyme_dup, enzyme_const, enzyme_out;

constexpr double cpow(double x, int n) { return n == 0 ? 1.0 : x * cpow(x, n - 1); }
static_assert(cpow(2.0, 10) == 1024.0);
consteval int nodes() { return 5; }

template <typename T> struct Gauss {
  static constexpr int N = nodes();
  static constexpr double x[N] = {-0.9061798459386640, -0.5384693101056831, 0.0,
                                  0.5384693101056831, 0.9061798459386640};
  static constexpr double w[N] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                  0.4786286704993665, 0.2369268850561891};
  static inline int calls = 0;
  // integral over [0, b] of a x^3 + sin(pi x / 2) (exact for the cubic)
  static T integral(T a, T b) {
    calls++;
    T s = 0;
    for (int i = 0; i < N; i++) {
      T t = T(0.5) * b * (T(x[i]) + T(1));
      T f = a * T(cpow(1.0, 3)) * t * t * t;
      if constexpr (sizeof(T) == sizeof(double)) f += std::sin(std::numbers::pi_v<T> * t / T(2));
      else f += std::sin(std::numbers::pi_v<T> * t / T(2));
      s += T(w[i]) * f;
    }
    return T(0.5) * b * s;
  }
};

double integ_d(double a, double b) { return Gauss<double>::integral(a, b); }
float integ_f(float a, float b) { return Gauss<float>::integral(a, b); }

int main() {
  const double pi = std::numbers::pi;
  double a = 1.3, b = 0.8;
  double da = __enzyme_autodiff<double>((void *)integ_d, a, enzyme_const, b);
  double db = __enzyme_autodiff<double>((void *)integ_d, enzyme_const, a, b);
  fz_check("d/da = b^4/4", da, b * b * b * b / 4, 1e-12);
  // d/db: a b^3 + sin(pi b / 2), up to the 5-point rule's error on the sine
  fz_check("d/db", db, a * b * b * b + std::sin(pi * b / 2), 1e-8);
  float af = 1.3f, bf = 0.8f;
  float daf = __enzyme_autodiff<float>((void *)integ_f, af, enzyme_const, bf);
  fz_check("float d/da", daf, (double)bf * bf * bf * bf / 4, 1e-5);
  fz_check("calls counted", Gauss<double>::calls >= 2 ? 1 : 0, 1, 0);
  return fz_finish();
}
