// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Generic C++ written against Enzyme's documented declarations: a function template
// instantiated at float and at double whose derivative is taken by another template
// (`__enzyme_autodiff<T>((void *)f<T>, x)`: no C promotion, the float stays a float),
// forward mode of the same templates, a generic `grad(F)` helper calling the hook on
// `call<F>` with the callable enzyme_const (a captureless lambda, a lambda capturing by
// value, a struct functor), and enzyme_dup of a functor to get the derivative with
// respect to its data members. Oracle: analytic, and finite differences in double.
#include "fz_cxx.h"
#include <cmath>
#include <initializer_list>

extern int enzyme_dup, enzyme_const, enzyme_out;

template <typename T> T poly(T x) { return T(3) * x * x * x - T(2) * x + std::sin(x); }
template <typename T> T dpoly(T x) { return T(9) * x * x - T(2) + std::cos(x); }

template <typename T> T rev(T x) { return __enzyme_autodiff<T>((void *)poly<T>, x); }
template <typename T> T fwd(T x) { return __enzyme_fwddiff<T>((void *)poly<T>, x, T(1)); }

template <typename T> T norm2(const T *v, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return std::sqrt(s);
}
template <typename T> void grad_norm2(const T *v, T *dv, int n) {
  __enzyme_autodiff<void>((void *)norm2<T>, enzyme_dup, v, dv, enzyme_const, n);
}

template <typename F> double call(const F &f, double x) { return f(x); }
template <typename F> double grad(const F &f, double x) {
  return __enzyme_autodiff<double>((void *)call<F>, enzyme_const, (const void *)&f, x);
}

struct Damped {
  double a, w;
  double operator()(double x) const { return std::exp(-a * x) * std::cos(w * x); }
};
/* d/dx and, with the functor duplicated, d/da and d/dw accumulated in its shadow */
static double dDamped_dx(const Damped &d, double x) {
  return -d.a * std::exp(-d.a * x) * std::cos(d.w * x) - d.w * std::exp(-d.a * x) * std::sin(d.w * x);
}

int main() {
  char b[80];
  for (double x : {-0.8, 0.3, 1.7}) {
    float xf = (float)x;
    snprintf(b, sizeof b, "rev<float> x=%g", x);
    fz_check(b, rev<float>(xf), dpoly<float>(xf), 2e-5 * (1 + std::fabs(dpoly<float>(xf))));
    snprintf(b, sizeof b, "rev<double> x=%g", x);
    fz_check(b, rev<double>(x), dpoly<double>(x), 1e-13);
    snprintf(b, sizeof b, "fwd<float> x=%g", x);
    fz_check(b, fwd<float>(xf), dpoly<float>(xf), 2e-5 * (1 + std::fabs(dpoly<float>(xf))));
    snprintf(b, sizeof b, "fwd<double> x=%g", x);
    fz_check(b, fwd<double>(x), dpoly<double>(x), 1e-13);
  }
  float vf[3] = {1.0f, -2.0f, 2.0f}, dvf[3] = {0, 0, 0};
  double vd[3] = {1.0, -2.0, 2.0}, dvd[3] = {0, 0, 0};
  grad_norm2<float>(vf, dvf, 3);
  grad_norm2<double>(vd, dvd, 3);
  for (int i = 0; i < 3; i++) {
    fz_check("grad_norm2<float>", dvf[i], vd[i] / 3.0, 1e-6);
    fz_check("grad_norm2<double>", dvd[i], vd[i] / 3.0, 1e-14);
  }

  double x = 0.6;
  auto plain = [](double t) { return t * std::log1p(t * t); };
  fz_check("captureless lambda", grad(plain, x), fz_fd([&] { return plain(x); }, x), 1e-7);
  double k = 1.7, c = -0.4;
  auto captured = [k, c](double t) { return std::tanh(k * t + c) * t; };
  fz_check("capturing lambda", grad(captured, x), fz_fd([&] { return captured(x); }, x), 1e-7);
  Damped d{0.3, 2.1};
  fz_check("functor const", grad(d, x), dDamped_dx(d, x), 1e-13);

  Damped dd{0, 0};
  double gx = __enzyme_autodiff<double>((void *)call<Damped>, enzyme_dup, &d, &dd, x);
  fz_check("functor dup d/dx", gx, dDamped_dx(d, x), 1e-13);
  fz_check("functor dup d/da", dd.a, -x * std::exp(-d.a * x) * std::cos(d.w * x), 1e-13);
  fz_check("functor dup d/dw", dd.w, -x * std::exp(-d.a * x) * std::sin(d.w * x), 1e-13);
  return fz_finish();
}
