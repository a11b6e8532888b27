// OPT: O0 O2
// CFLAGS: -std=c++17
// Templates in the differentiated code: a function template instantiated for double and
// float, a class template with a non-type parameter, a full specialization, recursion
// through template instantiations (compile-time unrolled power), and a template that
// takes a functor type. Oracles: analytic derivatives.
#include "fz_cxx.h"

template <typename T>
T poly(const T *c, int n, T x) {
  T acc = 0;
  for (int i = n - 1; i >= 0; i--) acc = acc * x + c[i];
  return acc;
}

template <int N>
struct Pow {
  template <typename T>
  static T of(T x) { return x * Pow<N - 1>::of(x); }
};
template <>
struct Pow<0> {
  template <typename T>
  static T of(T) { return T(1); }
};

template <typename T, int N>
struct Stencil {
  T w[N];
  T apply(const T *u) const {
    T s = 0;
    for (int i = 0; i < N; i++) s += w[i] * u[i];
    return s;
  }
};

template <typename T>
struct Square {
  T operator()(T x) const { return x * x; }
};
template <typename T, typename F>
T map_sum(const T *x, int n, F f) {
  T s = 0;
  for (int i = 0; i < n; i++) s += f(x[i]);
  return s;
}

double model(const double *x, int n, double t) {
  static const double c[4] = {1.0, -2.0, 0.5, 0.25};
  Stencil<double, 3> st{{0.25, 0.5, 0.25}};
  double e = poly(c, 4, t) + Pow<5>::of(t);
  for (int i = 0; i + 3 <= n; i++) e += st.apply(x + i) * x[i];
  return e + map_sum(x, n, Square<double>{});
}

float modelf(float t) { return poly<float>((const float[]){1.f, 3.f, -1.f}, 3, t) * Pow<3>::of(t); }

int main() {
  fz_seed(301);
  const int n = 6;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1, 1);
  fz_zero(dx, n);
  double t = fz_uniform(0.2, 0.9);
  double dt = __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, n, enzyme_out, t);
  // d/dt: poly' + 5 t^4; d/dx: finite differences of the same model.
  double want_t = -2.0 + 2 * 0.5 * t + 3 * 0.25 * t * t + 5 * t * t * t * t;
  fz_check("dt", dt, want_t, 1e-12);
  fz_fd_grad_of([&] { return model(x, n, t); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  float tf = 0.7f;
  float dtf = __enzyme_autodiff<float>((void *)modelf, tf);
  // (1 + 3t - t^2) t^3 -> (3 - 2t) t^3 + 3 t^2 (1 + 3t - t^2)
  double wantf = (3 - 2 * 0.7) * 0.343 + 3 * 0.49 * (1 + 2.1 - 0.49);
  fz_check("dtf", dtf, wantf, 1e-5);
  return fz_finish();
}
