// OPT: O0 O1 O2 O3
// probe41: Hessian-vector products users write in C++ over code that calls through
// pointers: a loss calling a `std::function` member (a lambda capturing a constant),
// a virtual activation through a base reference, and a templated functor; forward over
// reverse with `__enzyme_fwddiff` of a gradient wrapper, forward over reverse with
// <enzyme/enzyme> (`Forward` of a function running `Reverse`), and reverse over forward.
// Oracles: central differences of the gradient along v, the analytic Hessian of the
// first model, the symmetry u.(H v) = v.(H u).
#include <enzyme/enzyme>
#include <cmath>
#include <functional>
#include <vector>
#include "fz_cxx.h"

struct Act {
  virtual ~Act() = default;
  virtual double operator()(double z) const = 0;
};
struct Softplus : Act {
  double operator()(double z) const override { return std::log1p(std::exp(z)); }
};
struct Cubic : Act {
  double a;
  explicit Cubic(double a) : a(a) {}
  double operator()(double z) const override { return a * z * z * z + z; }
};

template <int K>
struct Poly {
  double c[K];
  double operator()(double z) const {
    double s = 0;
    for (int k = K - 1; k >= 0; k--) s = s * z + c[k];
    return s;
  }
};

struct Model {
  const Act *act;
  std::function<double(double)> penalty;
  Poly<3> poly;
};

__attribute__((noinline)) double loss(const double *w, const Model &m, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (*m.act)(w[i] * (i + 1) * 0.3) + m.penalty(w[i]) + m.poly(w[(i + 1) % n]) * w[i];
  return s;
}

void grad(const double *w, double *g, const Model *m, int n) {
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, w, g, enzyme_const, m, enzyme_const, n);
}

void grad_api(const double *w, double *g, const Model *m, int n) {
  enzyme::autodiff<enzyme::Reverse>(loss, enzyme::Duplicated<const double *>(w, g),
                                    enzyme::Const<const Model &>(*m), enzyme::Const<int>(n));
}

double dir(const double *w, const Model *m, int n) {
  double v[4] = {0.3, -1.0, 0.5, 2.0};
  return __enzyme_fwddiff<double>((void *)loss, enzyme_dup, w, v, enzyme_const, m, enzyme_const, n);
}

static void check(const Model &m, const char *name) {
  const int n = 4;
  double w[n] = {0.4, -0.3, 0.8, 0.1};
  double g[n] = {0};
  grad(w, g, &m, n);
  auto L = [&] { return loss(w, m, n); };
  for (int i = 0; i < n; i++) fz_check(name, g[i], fz_fd(L, w[i]), 1e-6);
  double u[n] = {1.0, 0.2, -0.7, 0.4}, v[n] = {0.3, -1.0, 0.5, 2.0};
  double Hu[n] = {0}, Hv[n] = {0}, g2[n] = {0}, Hv2[n] = {0};
  __enzyme_fwddiff<void>((void *)grad, enzyme_dup, w, v, enzyme_dup, g2, Hv, enzyme_const, &m, enzyme_const, n);
  for (int i = 0; i < n; i++) g2[i] = 0;
  __enzyme_fwddiff<void>((void *)grad, enzyme_dup, w, u, enzyme_dup, g2, Hu, enzyme_const, &m, enzyme_const, n);
  for (int i = 0; i < n; i++) g2[i] = 0;
  __enzyme_fwddiff<void>((void *)grad_api, enzyme_dup, w, v, enzyme_dup, g2, Hv2, enzyme_const, &m,
                         enzyme_const, n);
  double uHv = 0, vHu = 0;
  for (int i = 0; i < n; i++) { uHv += u[i] * Hv[i]; vHu += v[i] * Hu[i]; }
  fz_check("symmetry", uHv, vHu, 1e-10);
  double wp[n], wm[n], gp[n] = {0}, gm[n] = {0};
  const double h = 1e-6;
  for (int i = 0; i < n; i++) { wp[i] = w[i] + h * v[i]; wm[i] = w[i] - h * v[i]; }
  grad(wp, gp, &m, n);
  grad(wm, gm, &m, n);
  for (int i = 0; i < n; i++) {
    fz_check("Hv vs FD", Hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
    fz_check("Hv api", Hv2[i], Hv[i], 1e-12);
  }
  /* reverse over forward: the gradient of (grad loss . v) is H v */
  double d[n] = {0};
  __enzyme_autodiff<void>((void *)dir, enzyme_dup, w, d, enzyme_const, &m, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("rev/fwd = Hv", d[i], Hv[i], 1e-10);
}

int main() {
  Softplus sp;
  Cubic cu(0.7);
  const double lam = 0.25;
  Model a{&sp, [lam](double x) { return lam * x * x * x * x; }, {{0.5, -1.0, 0.3}}};
  Model b{&cu, [lam](double x) { return std::sin(lam * x); }, {{0.1, 0.2, 0.3}}};
  check(a, "softplus");
  check(b, "cubic");
  return fz_finish();
}
