// OPT: O0 O2
// CFLAGS: -std=c++17
// A compile-time polynomial/series expression chosen with `if constexpr`: a recursive
// variadic template evaluates a Horner polynomial whose coefficients are a template
// parameter pack of integers, a `Series<N>` Taylor approximation of exp recursing on N
// with `if constexpr (N == 0)`, and a kernel whose branch depends on a type trait
// (`std::is_same_v<T, float>` computes in double and rounds, otherwise in T), instantiated
// at float and double. Oracle: analytic derivatives (the polynomial's, the truncated
// series', the kernel's) and central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <type_traits>

template <int C0, int... Cs>
double horner(double x) {
  if constexpr (sizeof...(Cs) == 0)
    return C0;
  else
    return C0 + x * horner<Cs...>(x);
}

template <int N>
double series_exp(double x) {  // sum_{k<=N} x^k / k!
  if constexpr (N == 0) {
    return 1.0;
  } else {
    double term = 1.0;
    for (int k = 1; k <= N; k++) term *= x / k;
    return series_exp<N - 1>(x) + term;
  }
}

template <typename T>
T kernel(T x, T s) {
  if constexpr (std::is_same_v<T, float>) {
    double xd = x, sd = s;
    return (T)(xd * std::exp(-sd * xd * xd));
  } else if constexpr (std::is_floating_point_v<T>) {
    return x * std::exp(-s * x * x);
  } else {
    static_assert(std::is_floating_point_v<T>, "floats only");
  }
}

double expression(double x, double s) {
  return horner<3, -2, 0, 1>(x) + 0.5 * series_exp<6>(x) + kernel<double>(x, s);
}

float expression_f(float x, float s) { return kernel<float>(x, s) + (float)horner<1, 4>(x); }

extern int enzyme_out;
struct G2 {
  double dx, ds;
};
struct G2f {
  float dx, ds;
};

int main() {
  double x = 0.7, s = 1.3;
  G2 g = __enzyme_autodiff<G2>((void *)expression, enzyme_out, x, enzyme_out, s);
  double e = std::exp(-s * x * x);
  double dser = 0, fact = 1;  // d/dx of series_exp<6> = series_exp<5>
  for (int k = 0; k <= 5; k++) {
    if (k > 0) fact *= k;
    dser += std::pow(x, k) / fact;
  }
  double want_dx = -2 + 3 * x * x + 0.5 * dser + e * (1 - 2 * s * x * x);
  double want_ds = -x * x * x * e;
  fz_check("d/dx analytic", g.dx, want_dx, 1e-12);
  fz_check("d/ds analytic", g.ds, want_ds, 1e-12);
  fz_check("d/dx finite differences", g.dx, fz_fd([&] { return expression(x, s); }, x), 1e-7);
  fz_check("d/ds finite differences", g.ds, fz_fd([&] { return expression(x, s); }, s), 1e-7);
  float xf = 0.7f, sf = 1.3f;
  G2f gf = __enzyme_autodiff<G2f>((void *)expression_f, enzyme_out, xf, enzyme_out, sf);
  double ef = std::exp(-(double)sf * xf * xf);
  fz_check("float d/dx analytic", gf.dx, 4 + ef * (1 - 2.0 * sf * xf * xf), 1e-5);
  fz_check("float d/ds analytic", gf.ds, -(double)xf * xf * xf * ef, 1e-5);
  return fz_finish();
}
