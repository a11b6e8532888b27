// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Expression templates of our own built on CRTP (`Expr<Derived>` with `derived()`, lazy
// `Sum`, `Product`, `Scaled` and `Apply<F>` nodes holding references to their operands,
// evaluated element by element when assigned to a `Vec`): y = a*x + sin(x)*z, then
// w = (y + x) * y, reduced to a scalar. Oracle: the hand-written gradient (analytic) and
// central differences of every input.
#include "fz_cxx.h"
#include <cmath>

template <class D>
struct Expr {
  const D &derived() const { return static_cast<const D &>(*this); }
  double operator[](int i) const { return derived()[i]; }
};

struct Vec : Expr<Vec> {
  double v[6];
  double operator[](int i) const { return v[i]; }
  double &operator[](int i) { return v[i]; }
  template <class E>
  Vec &operator=(const Expr<E> &e) {
    for (int i = 0; i < 6; i++) v[i] = e.derived()[i];
    return *this;
  }
};

template <class A, class B>
struct Sum : Expr<Sum<A, B>> {
  const A &a;
  const B &b;
  Sum(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] + b[i]; }
};
template <class A, class B>
struct Product : Expr<Product<A, B>> {
  const A &a;
  const B &b;
  Product(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] * b[i]; }
};
template <class A>
struct Scaled : Expr<Scaled<A>> {
  double s;
  const A &a;
  Scaled(double s, const A &a) : s(s), a(a) {}
  double operator[](int i) const { return s * a[i]; }
};
struct Sin {
  double operator()(double x) const { return std::sin(x); }
};
template <class F, class A>
struct Apply : Expr<Apply<F, A>> {
  const A &a;
  explicit Apply(const A &a) : a(a) {}
  double operator[](int i) const { return F()(a[i]); }
};

template <class A, class B>
Sum<A, B> operator+(const Expr<A> &a, const Expr<B> &b) { return {a.derived(), b.derived()}; }
template <class A, class B>
Product<A, B> operator*(const Expr<A> &a, const Expr<B> &b) { return {a.derived(), b.derived()}; }
template <class A>
Scaled<A> operator*(double s, const Expr<A> &a) { return {s, a.derived()}; }
template <class A>
Apply<Sin, A> sin(const Expr<A> &a) { return Apply<Sin, A>(a.derived()); }

double f(const double *xs, const double *zs, double a) {
  Vec x, z, y, w;
  for (int i = 0; i < 6; i++) x[i] = xs[i], z[i] = zs[i];
  y = a * x + sin(x) * z;
  w = (y + x) * y;
  double s = 0;
  for (int i = 0; i < 6; i++) s += w[i];
  return s;
}

extern int enzyme_dup, enzyme_out;

int main() {
  double x[6] = {0.3, -0.7, 1.1, 0.5, -1.4, 0.9}, z[6] = {1.2, 0.4, -0.6, 0.8, 0.2, -1.0};
  double dx[6] = {0}, dz[6] = {0}, a = 0.7, fd[6], ax[6], az[6], aa = 0;
  double da = __enzyme_autodiff<double>((void *)f, enzyme_dup, x, dx, enzyme_dup, z, dz,
                                        enzyme_out, a);
  // w_i = (y + x) y with y = a x + sin(x) z: dw/dy = 2y + x, dw/dx|y = y.
  for (int i = 0; i < 6; i++) {
    double y = a * x[i] + std::sin(x[i]) * z[i], gy = 2 * y + x[i];
    ax[i] = y + gy * (a + std::cos(x[i]) * z[i]);
    az[i] = gy * std::sin(x[i]);
    aa += gy * x[i];
  }
  fz_check_arr("d/dx analytic", dx, ax, 6, 1e-10);
  fz_check_arr("d/dz analytic", dz, az, 6, 1e-10);
  fz_check("d/da analytic", da, aa, 1e-10);
  fz_fd_grad_of([&] { return f(x, z, a); }, x, 6, fd);
  fz_check_arr("d/dx finite differences", dx, fd, 6, 1e-6);
  fz_fd_grad_of([&] { return f(x, z, a); }, z, 6, fd);
  fz_check_arr("d/dz finite differences", dz, fd, 6, 1e-6);
  return fz_finish();
}
