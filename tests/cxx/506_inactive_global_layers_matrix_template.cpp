// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// probe43 (**fixed** at -O0): a network of layers kept in a global
// `std::vector<std::unique_ptr<Layer>>` (and a `std::vector<Layer *>`) declared inactive
// with `__enzyme_inactive_global`, iterated by range-for, virtual `act` overrides (one
// with a member read), between products of a class template `Mat<T, R, C>` with
// operator overloading (`*`, `+`, `*=`, transpose, trace). At -O0 the derivative crashed
// (SIGSEGV in the augmented `unique_ptr::_M_ptr`): the iterators on the stack got
// shadows, null since the global has none, and a callee loaded through them. A pointer
// read from an inactive global is now provably constant, so such iterator slots have no
// shadow (as with an enzyme_const argument). Reverse against central differences,
// forward against <gradient, v>.
#include "fz_cxx.h"
#include <array>
#include <memory>
#include <vector>
extern double __enzyme_fwddiff(void *, ...);
template <class T, int R, int C> struct Mat {
  std::array<T, R * C> a{};
  T &operator()(int i, int j) { return a[i * C + j]; }
  const T &operator()(int i, int j) const { return a[i * C + j]; }
  template <int K> Mat<T, R, K> operator*(const Mat<T, C, K> &o) const {
    Mat<T, R, K> m;
    for (int i = 0; i < R; i++) for (int k = 0; k < K; k++) { T s = 0; for (int j = 0; j < C; j++) s += (*this)(i, j) * o(j, k); m(i, k) = s; }
    return m;
  }
  Mat operator+(const Mat &o) const { Mat m; for (int i = 0; i < R * C; i++) m.a[i] = a[i] + o.a[i]; return m; }
  Mat &operator*=(T s) { for (auto &v : a) v *= s; return *this; }
  Mat<T, C, R> t() const { Mat<T, C, R> m; for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) m(j, i) = (*this)(i, j); return m; }
  T trace() const { T s = 0; for (int i = 0; i < (R < C ? R : C); i++) s += (*this)(i, i); return s; }
};
struct Layer { virtual ~Layer() = default; virtual double act(double) const = 0; virtual double scale() const { return 1.0; } };
struct Tanh : Layer { double act(double v) const override { return std::tanh(v); } };
struct Soft : Layer { double k; explicit Soft(double k) : k(k) {} double act(double v) const override { return std::log1p(std::exp(k * v)) / k; } double scale() const override { return k; } };
static std::vector<std::unique_ptr<Layer>> layers;
static std::vector<Layer *> plain;
void *__enzyme_inactive_global[] = {(void *)&layers, (void *)&plain};
double net(const double *x, int n) {
  (void)n; Mat<double, 3, 3> W; Mat<double, 3, 1> v;
  for (int i = 0; i < 9; i++) W.a[i] = x[i];
  for (int i = 0; i < 3; i++) v.a[i] = x[9 + i];
  for (auto &l : layers) {
    v = W * v;
    for (auto &e : v.a) e = l->act(e);
    v *= l->scale();
  }
  auto G = W.t() * W + W;
  return (v.t() * v).trace() + 0.1 * G.trace();
}
double chain(double x) {
  for (auto *l : plain) x = l->act(x) * l->scale();
  return x;
}
int main() {
  layers.push_back(std::make_unique<Tanh>());
  layers.push_back(std::make_unique<Soft>(1.7));
  layers.push_back(std::make_unique<Tanh>());
  double x[12]; fz_seed(9); fz_fill(x, 12, -1, 1);
  double dx[12] = {0}, g[12];
  __enzyme_autodiff((void *)net, enzyme_dup, x, dx, enzyme_const, 12);
  fz_fd_grad_of([&] { return net(x, 12); }, x, 12, g);
  for (int i = 0; i < 12; i++) fz_check("mat/virtual rev", dx[i], g[i], 1e-6);
  double v[12], dot = 0; for (int i = 0; i < 12; i++) { v[i] = 0.2 - 0.05 * i; dot += v[i] * dx[i]; }
  fz_check("mat/virtual fwd", __enzyme_fwddiff((void *)net, enzyme_dup, x, v, enzyme_const, 12), dot, 1e-10);
  Tanh t1;
  Soft s1(0.6);
  plain = {&t1, &s1, &t1};
  double y = 0.4;
  double dy = __enzyme_autodiff<double>((void *)chain, y);
  fz_check("vector<Layer *> rev", dy, fz_fd([&] { return chain(y); }, y), 1e-7);
  fz_check("vector<Layer *> fwd", __enzyme_fwddiff((void *)chain, y, 1.0), dy, 1e-12);
  return fz_finish();
}
