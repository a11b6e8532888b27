// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// holders42: Hessian-vector products (forward over reverse) of a loss reading an
// `enzyme_const` `std::map<int, double>` through `find` and `std::prev(upper_bound)`
// (cxx/457's lookups, whose iterators runtime activity takes over at -O0: the map's
// nodes are constant memory reached through calls given the constant map), with the
// active state. The Hessian is diagonal and known: with c_k = w.find(k)->second or 1
// and d_k the value of the last key <= k (0 if none), f = sum_k c_k x_k^2 + d_k sin x_k
// gives H_kk = 2 c_k - d_k sin x_k. Passes with main's binary too (a regression test for
// the holders42 changes under forward over reverse). Oracles: that Hessian, central differences of the
// analytic gradient along v, the symmetry u.(H v) = v.(H u), the gradient against the
// analytic one and central differences, the map unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <iterator>
#include <map>

using Map = std::map<int, double>;

static double c_of(const Map &w, int k) {
  auto it = w.find(k);
  return it != w.end() ? it->second : 1.0;
}

static double d_of(const Map &w, int k) {
  auto ub = w.upper_bound(k);
  return ub == w.begin() ? 0.0 : std::prev(ub)->second;
}

__attribute__((noinline)) double f(const double *x, const Map &w, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += c_of(w, k) * x[k] * x[k] + d_of(w, k) * std::sin(x[k]);
  return s;
}

void gradient(const double *x, double *g, const Map *w, int n) {
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, g, enzyme_const, w, enzyme_const, n);
}

static void grad_exact(const double *x, const Map &w, int n, double *g) {
  for (int k = 0; k < n; k++) g[k] = 2 * c_of(w, k) * x[k] + d_of(w, k) * std::cos(x[k]);
}

int main() {
  const int n = 6;
  Map w = {{1, 2.5}, {2, -0.75}, {4, 1.5}};
  const Map w0 = w;
  double x[n] = {0.4, -0.7, 1.1, 0.3, -0.2, 0.9}, g[n] = {0}, want[n], fd[n];
  gradient(x, g, &w, n);
  grad_exact(x, w, n, want);
  fz_check_arr("gradient analytic", g, want, n, 1e-12);
  fz_fd_grad_of([&] { return f(x, w0, n); }, x, n, fd);
  fz_check_arr("gradient finite differences", g, fd, n, 1e-6);

  double u[n], v[n], Hu[n] = {0}, Hv[n] = {0}, g2[n] = {0};
  for (int k = 0; k < n; k++) {
    u[k] = std::sin(1.0 + k);
    v[k] = std::cos(0.5 * k);
  }
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, x, v, enzyme_dup, g2, Hv, enzyme_const, &w,
                         enzyme_const, n);
  fz_check_arr("forward over reverse: its gradient", g2, want, n, 1e-12);
  std::fill(g2, g2 + n, 0.0);
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, x, u, enzyme_dup, g2, Hu, enzyme_const, &w,
                         enzyme_const, n);
  double uHv = 0, vHu = 0;
  for (int k = 0; k < n; k++) {
    uHv += u[k] * Hv[k];
    vHu += v[k] * Hu[k];
    double h = 2 * c_of(w, k) - d_of(w, k) * std::sin(x[k]);
    fz_check("Hv analytic", Hv[k], h * v[k], 1e-12);
  }
  fz_check("Hessian symmetry u.Hv == v.Hu", uHv, vHu, 1e-10);
  double xp[n], xm[n], gp[n], gm[n];
  const double h = 1e-6;
  for (int k = 0; k < n; k++) {
    xp[k] = x[k] + h * v[k];
    xm[k] = x[k] - h * v[k];
  }
  grad_exact(xp, w, n, gp);
  grad_exact(xm, w, n, gm);
  for (int k = 0; k < n; k++) fz_check("Hv vs FD of gradient", Hv[k], (gp[k] - gm[k]) / (2 * h), 1e-6);
  fz_check("enzyme_const map unchanged", w == w0 ? 1 : 0, 1, 0);
  return fz_finish();
}
