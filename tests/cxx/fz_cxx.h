// fz_cxx.h -- C++ helpers for the end-to-end C++ programs (on top of fz_test.h).
//
// Finite differences of any callable (lambdas capture the program's state), so every
// derivative can be compared with an oracle computed from the primal code itself.
#pragma once

#include "../c/fz_test.h"

// Enzyme's documented C++ declarations of the entry points (the C-style variadic
// `__enzyme_autodiff` from fz_test.h stays available next to them).
template <typename R, typename... T>
R __enzyme_autodiff(void *, T...);
template <typename R, typename... T>
R __enzyme_fwddiff(void *, T...);

// d f() / d x by central differences (h = 1e-6 relative); x is restored.
template <typename F>
double fz_fd(F &&f, double &x) {
  double x0 = x;
  double h = fz_step(x0, 1e-6);
  volatile double xp = x0 + h, xm = x0 - h;
  x = xp;
  double fp = f();
  x = xm;
  double fm = f();
  x = x0;
  return (fp - fm) / (xp - xm);
}

// Gradient of f() with respect to x[0..n-1].
template <typename F>
void fz_fd_grad_of(F &&f, double *x, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = fz_fd(f, x[i]);
}

// Directional derivative of f() along v at x[0..n-1].
template <typename F>
double fz_fd_dir_of(F &&f, double *x, const double *v, int n) {
  double x0[64];
  double h = 1e-6;
  for (int i = 0; i < n; i++) x0[i] = x[i];
  for (int i = 0; i < n; i++) x[i] = x0[i] + h * v[i];
  double fp = f();
  for (int i = 0; i < n; i++) x[i] = x0[i] - h * v[i];
  double fm = f();
  for (int i = 0; i < n; i++) x[i] = x0[i];
  return (fp - fm) / (2 * h);
}
