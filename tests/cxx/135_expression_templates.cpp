// OPT: O0 O1 O2 O3
// A user's own expression-template vector library (the technique of Eigen and Blaze in
// sixty lines): a CRTP base `Expr<E>`, lazy `Add`, `Mul`, `Scale` and `Apply<F>` nodes
// held by value with references to their operands, a fixed-size `Vec<N>` whose
// assignment from an expression runs one fused loop, a `dot` and a `sum` over
// expressions, and a functor `Apply` with a lambda. The differentiated function builds
// and evaluates several expressions from active inputs. Reverse mode and forward mode.
// Oracle: hand-written gradient and central finite differences; forward . v == grad . v.
#include "fz_cxx.h"
#include <cmath>

template <typename E>
struct Expr {
  const E &self() const { return static_cast<const E &>(*this); }
  double operator[](int i) const { return self()[i]; }
};

template <int N>
struct Vec : Expr<Vec<N>> {
  double v[N];
  Vec() = default;
  explicit Vec(const double *p) {
    for (int i = 0; i < N; i++) v[i] = p[i];
  }
  template <typename E>
  Vec &operator=(const Expr<E> &e) {
    for (int i = 0; i < N; i++) v[i] = e.self()[i];
    return *this;
  }
  template <typename E>
  Vec(const Expr<E> &e) {
    *this = e;
  }
  double operator[](int i) const { return v[i]; }
  double &operator[](int i) { return v[i]; }
};

template <typename A, typename B>
struct Add : Expr<Add<A, B>> {
  const A &a;
  const B &b;
  Add(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] + b[i]; }
};
template <typename A, typename B>
struct Mul : Expr<Mul<A, B>> {
  const A &a;
  const B &b;
  Mul(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] * b[i]; }
};
template <typename A>
struct Scale : Expr<Scale<A>> {
  double s;
  const A &a;
  Scale(double s, const A &a) : s(s), a(a) {}
  double operator[](int i) const { return s * a[i]; }
};
template <typename A, typename F>
struct Apply : Expr<Apply<A, F>> {
  const A &a;
  F f;
  Apply(const A &a, F f) : a(a), f(f) {}
  double operator[](int i) const { return f(a[i]); }
};

template <typename A, typename B>
Add<A, B> operator+(const Expr<A> &a, const Expr<B> &b) { return Add<A, B>(a.self(), b.self()); }
template <typename A, typename B>
Mul<A, B> operator*(const Expr<A> &a, const Expr<B> &b) { return Mul<A, B>(a.self(), b.self()); }
template <typename A>
Scale<A> operator*(double s, const Expr<A> &a) { return Scale<A>(s, a.self()); }
template <typename A, typename F>
Apply<A, F> apply(const Expr<A> &a, F f) { return Apply<A, F>(a.self(), f); }

template <int N, typename A, typename B>
double dot(const Expr<A> &a, const Expr<B> &b) {
  double s = 0;
  for (int i = 0; i < N; i++) s += a.self()[i] * b.self()[i];
  return s;
}

#define N 6
double objective(const double *px, const double *py, double s) {
  Vec<N> x(px), y(py);
  Vec<N> z = s * x + x * y;                                   // fused
  Vec<N> t = apply(z + y, [](double u) { return std::tanh(u); });
  Vec<N> w = t * t + 0.5 * x;
  return dot<N>(w, z) + dot<N>(apply(x, [s](double u) { return std::exp(s * u); }), y);
}

int main() {
  double x[N], y[N], s = 0.8;
  fz_seed(135);
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  double dx[N] = {0}, dy[N] = {0};
  double ds = __enzyme_autodiff<double>((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                        enzyme_out, s);
  // hand-written gradient, elementwise
  double wx[N], wy[N], wsum = 0;
  for (int i = 0; i < N; i++) {
    double z = s * x[i] + x[i] * y[i], t = std::tanh(z + y[i]), w = t * t + 0.5 * x[i];
    double dt = 1 - t * t, e = std::exp(s * x[i]);
    // f_i = w z + e y ; w = t^2 + x/2 ; t = tanh(z + y) ; z = s x + x y
    double dfdz = w + z * 2 * t * dt;       // through w's t and z directly
    double dfdy_direct = z * 2 * t * dt + e; // t's y argument, and e y
    wx[i] = dfdz * (s + y[i]) + 0.5 * z + s * e * y[i];
    wy[i] = dfdz * x[i] + dfdy_direct;
    wsum += dfdz * x[i] + x[i] * e * y[i];
  }
  fz_check_arr("dx analytic", dx, wx, N, 1e-12);
  fz_check_arr("dy analytic", dy, wy, N, 1e-12);
  fz_check("ds analytic", ds, wsum, 1e-12);
  double fd[N];
  fz_fd_grad_of([&] { return objective(x, y, s); }, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  double vx[N], vy[N];
  fz_fill(vx, N, -1, 1);
  fz_fill(vy, N, -1, 1);
  double jv = __enzyme_fwddiff<double>((void *)objective, enzyme_dup, x, vx, enzyme_dup, y, vy, s, 0.5);
  double want = 0.5 * ds;
  for (int i = 0; i < N; i++) want += dx[i] * vx[i] + dy[i] * vy[i];
  fz_check("forward . v == grad . v", jv, want, 1e-12);
  return fz_finish();
}
