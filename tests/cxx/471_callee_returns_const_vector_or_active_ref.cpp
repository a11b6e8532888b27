// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// holders41: `noinline` helpers given an `enzyme_const` `std::vector<double>` of weights
// and the active state return a `const double &` into one or the other (a conditional
// expression, and a member function of a small view struct choosing by a branch); the
// caller reads through the reference. Where it refers into the weights its shadow is the
// pointer itself (runtime activity), checked by the caller. The C shape of tests/c/1437
// (which main's binary refused); this one passes with main's binary too (a regression
// test for `runtime_activity/constant_args.rs`). Oracles: the analytic gradient, central
// differences, forward . v against the gradient, the weights unchanged after both calls.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

using Vec = std::vector<double>;

__attribute__((noinline)) static const double &coef(const Vec &w, const double *x, int k) {
  return k > 1 ? w[k] : x[k];
}

struct View {
  const Vec *w;
  const double *x;
  __attribute__((noinline)) const double &at(int k) const {
    if (k % 2 == 0) return (*w)[k];
    return x[k];
  }
};

// f = sum_k coef_k x_k + sum_k sin(at_k) x_k
double f(const double *x, const Vec &w, int n) {
  View v{&w, x};
  double s = 0;
  for (int k = 0; k < n; k++) s += coef(w, x, k) * x[k] + std::sin(v.at(k)) * x[k];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  Vec w = {9.0, -9.0, 2.5, -1.5, 0.75};
  const Vec w0 = w;
  double x[n] = {0.4, -0.7, 1.1, 0.3, -0.2}, dx[n] = {0}, want[n], fd[n];
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx, enzyme_const, &w, enzyme_const, n);
  fz_check("enzyme_const vector unchanged", w == w0 ? 1 : 0, 1, 0);
  for (int k = 0; k < n; k++) {
    double da = k > 1 ? w[k] : 2 * x[k];
    double db = k % 2 == 0 ? std::sin(w[k]) : std::sin(x[k]) + std::cos(x[k]) * x[k];
    want[k] = da + db;
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return f(x, w0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -1.3}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, v, enzyme_const, &w,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const vector unchanged (forward)", w == w0 ? 1 : 0, 1, 0);
  return fz_finish();
}
