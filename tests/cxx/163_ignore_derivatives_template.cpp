// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `__enzyme_ignore_derivatives` inside C++ templates (sweep19): a stop-gradient declared
// as a template (`template <class T> T __enzyme_ignore_derivatives(T)`, one
// instantiation per type), used in a generic normalised loss over `std::vector<T>` for
// double, in a templated fixed-point step whose step size is frozen, and in a class
// template's member. Oracles: the analytic derivatives with the frozen values held
// constant (reverse and forward), and the primal unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <numeric>
#include <vector>

template <class T>
T __enzyme_ignore_derivatives(T);

template <class T>
T normalised_loss(const T *x, const T *w, int n) {
  std::vector<T> e(n);
  for (int i = 0; i < n; i++) e[i] = std::exp(x[i]);
  T z = __enzyme_ignore_derivatives(std::accumulate(e.begin(), e.end(), T(0)));
  T s = 0;
  for (int i = 0; i < n; i++) s += w[i] * e[i] / z;
  return s;
}

template <class T, int Steps>
T relax(T a, T x0) {
  T x = x0;
  for (int k = 0; k < Steps; k++) {
    T h = __enzyme_ignore_derivatives(T(0.5) / (T(1) + x * x));  // frozen step size
    x = x - h * (x * x - a);
  }
  return x;
}

template <class T>
struct Scaled {
  T scale;
  T apply(T x) const { return __enzyme_ignore_derivatives(scale * x) * x + scale * x; }
};

double loss_d(const double *x, const double *w, int n) { return normalised_loss<double>(x, w, n); }
double relax3(double a, double x0) { return relax<double, 3>(a, x0); }
double scaled_apply(const Scaled<double> *s, double x) { return s->apply(x); }

int main() {
  const int n = 5;
  double x[n] = {0.2, -0.4, 1.1, 0.3, -1.0}, w[n] = {1.0, -2.0, 0.5, 3.0, 0.75}, dx[n] = {0};
  double z = 0;
  for (int i = 0; i < n; i++) z += std::exp(x[i]);
  __enzyme_autodiff<void>((void *)loss_d, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("d/dx_i with Z frozen", dx[i], w[i] * std::exp(x[i]) / z, 1e-13);
  double v[n] = {1, 0.5, -1, 2, 0.25}, t = __enzyme_fwddiff<double>((void *)loss_d, enzyme_dup, x, v,
                                                                     enzyme_const, w, enzyme_const, n);
  double want = 0;
  for (int i = 0; i < n; i++) want += v[i] * w[i] * std::exp(x[i]) / z;
  fz_check("forward, Z frozen", t, want, 1e-13);

  // relax: x_{k+1} = x_k - h_k (x_k^2 - a), h_k frozen. Analytic derivative by the
  // recurrence d x_{k+1} = (1 - 2 h_k x_k) d x_k + h_k d a.
  double a = 2.0, x0 = 1.2, xa = x0, dxa = 0, dx0 = 1;
  for (int k = 0; k < 3; k++) {
    double h = 0.5 / (1 + xa * xa);
    dxa = (1 - 2 * h * xa) * dxa + h;
    dx0 = (1 - 2 * h * xa) * dx0;
    xa = xa - h * (xa * xa - a);
  }
  fz_check("relax primal", relax3(a, x0), xa, 1e-15);
  double da = __enzyme_autodiff<double>((void *)relax3, a, enzyme_const, x0);
  fz_check("d relax / da (steps frozen)", da, dxa, 1e-13);
  fz_check("forward d relax / d x0", __enzyme_fwddiff<double>((void *)relax3, enzyme_const, a, x0, 1.0),
           dx0, 1e-13);

  Scaled<double> s{1.75}, ds{0};
  double xs = 0.6;
  double dxs = __enzyme_autodiff<double>((void *)scaled_apply, enzyme_dup, &s, &ds, xs);
  fz_check("d apply / dx (scale x frozen)", dxs, s.scale * xs + s.scale, 1e-14);
  fz_check("d apply / dscale", ds.scale, xs, 1e-14);
  return fz_finish();
}
