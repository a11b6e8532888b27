// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Operator-overloading numerics as physics codes write them (sweep23): a CRTP expression
// template library (`Expr<E>` base, `Sum`, `Scaled`, `Product` nodes held by reference,
// evaluated lazily element by element when assigned to a `Vec`), a small value class
// `Interval`-free `Poly` with overloaded `+ - *` and `operator()` (Horner evaluation),
// and compound assignment operators. The loss evaluates a polynomial whose coefficients
// are an expression of the active vectors at points given by another expression.
// Oracles: the same computation written out with plain loops differentiated by hand
// (analytic), central finite differences.
#include "fz_cxx.h"
#include <cstddef>

constexpr int N = 6;

template <class E> struct Expr {
  double operator[](int i) const { return static_cast<const E &>(*this)[i]; }
};
struct Vec : Expr<Vec> {
  double v[N];
  Vec() { for (double &x : v) x = 0; }
  explicit Vec(const double *p) { for (int i = 0; i < N; i++) v[i] = p[i]; }
  template <class E> Vec &operator=(const Expr<E> &e) {
    for (int i = 0; i < N; i++) v[i] = e[i];
    return *this;
  }
  template <class E> Vec &operator+=(const Expr<E> &e) {
    for (int i = 0; i < N; i++) v[i] += e[i];
    return *this;
  }
  double operator[](int i) const { return v[i]; }
};
template <class A, class B> struct Sum : Expr<Sum<A, B>> {
  const A &a; const B &b;
  Sum(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] + b[i]; }
};
template <class A, class B> struct Product : Expr<Product<A, B>> {
  const A &a; const B &b;
  Product(const A &a, const B &b) : a(a), b(b) {}
  double operator[](int i) const { return a[i] * b[i]; }
};
template <class A> struct Scaled : Expr<Scaled<A>> {
  double s; const A &a;
  Scaled(double s, const A &a) : s(s), a(a) {}
  double operator[](int i) const { return s * a[i]; }
};
template <class A, class B> Sum<A, B> operator+(const Expr<A> &a, const Expr<B> &b) {
  return {static_cast<const A &>(a), static_cast<const B &>(b)};
}
template <class A, class B> Product<A, B> operator*(const Expr<A> &a, const Expr<B> &b) {
  return {static_cast<const A &>(a), static_cast<const B &>(b)};
}
template <class A> Scaled<A> operator*(double s, const Expr<A> &a) {
  return {s, static_cast<const A &>(a)};
}

struct Poly {
  double c[N];
  double operator()(double x) const {
    double r = 0;
    for (int k = N - 1; k >= 0; k--) r = r * x + c[k];
    return r;
  }
  Poly &operator*=(double s) { for (double &x : c) x *= s; return *this; }
};

double loss(const double *pa, const double *pb) {
  Vec a(pa), b(pb), coeffs, pts;
  coeffs = a * b + 0.5 * a;        // c_k = a_k b_k + a_k / 2
  coeffs += 0.25 * (b * b);        //     + b_k^2 / 4
  pts = 0.3 * (a + b);             // x_i = 0.3 (a_i + b_i)
  Poly p;
  for (int k = 0; k < N; k++) p.c[k] = coeffs[k];
  p *= 0.5;
  double s = 0;
  for (int i = 0; i < N; i++) s += p(pts[i]);
  return s;
}

int main() {
  double a[N], b[N], da[N] = {0}, db[N] = {0};
  fz_seed(206);
  fz_fill(a, N, -1, 1);
  fz_fill(b, N, -1, 1);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, a, da, enzyme_dup, b, db);
  double c[N], x[N], wa[N] = {0}, wb[N] = {0};
  for (int k = 0; k < N; k++) c[k] = 0.5 * (a[k] * b[k] + 0.5 * a[k] + 0.25 * b[k] * b[k]);
  for (int i = 0; i < N; i++) x[i] = 0.3 * (a[i] + b[i]);
  for (int i = 0; i < N; i++) {
    double dp = 0; // p'(x_i)
    for (int k = 1; k < N; k++) dp += k * c[k] * std::pow(x[i], k - 1);
    wa[i] += 0.3 * dp;
    wb[i] += 0.3 * dp;
    for (int k = 0; k < N; k++) {
      double xk = std::pow(x[i], k); // dS/dc_k summed over points
      wa[k] += 0.5 * xk * (b[k] + 0.5);
      wb[k] += 0.5 * xk * (a[k] + 0.5 * b[k]);
    }
  }
  fz_check_arr("d/da analytic", da, wa, N, 1e-10);
  fz_check_arr("d/db analytic", db, wb, N, 1e-10);
  auto f = [&] { return loss(a, b); };
  double fa[N], fb[N];
  fz_fd_grad_of(f, a, N, fa);
  fz_fd_grad_of(f, b, N, fb);
  fz_check_arr("d/da FD", da, fa, N, 1e-6);
  fz_check_arr("d/db FD", db, fb, N, 1e-6);
  return fz_finish();
}
