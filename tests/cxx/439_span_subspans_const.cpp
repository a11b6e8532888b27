// OPT: O0 O2
// CFLAGS: -std=c++20
// `std::span<const double>` over enzyme_const coefficients, cut with `subspan`, `first`
// and `last` and handed to non-inlined helpers by value next to a `std::span<const
// double>` of the active x: a banded quadratic form and a weighted tail sum. The spans
// are `{const double *, size_t}` records copied at -O0. Oracle: the analytic gradient,
// central differences, forward/reverse dot products; the coefficients checked unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <span>

__attribute__((noinline)) double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); i++) s += a[i] * b[i];
  return s;
}

double energy(const double *xp, const double *cp, int n) {
  std::span<const double> x(xp, n), c(cp, 2 * n);
  std::span<const double> diag = c.first(n), off = c.subspan(n, n - 1), tail = c.last(3);
  double e = 0;
  for (int i = 0; i < n; i++) e += diag[i] * x[i] * x[i];
  std::span<const double> lo = x.first(n - 1), hi = x.subspan(1);
  double cross = 0;
  for (int i = 0; i < n - 1; i++) cross += off[i] * lo[i] * hi[i];
  return e + cross + std::tanh(dot(tail, x.last(3)));
}

extern int enzyme_dup, enzyme_const;
#define N 5

int main() {
  double x[N], c[2 * N], dx[N] = {0}, fd[N], want[N] = {0};
  fz_seed(439);
  fz_fill(x, N, -1, 1);
  fz_fill(c, 2 * N, 0.2, 1.2);
  double c0[2 * N];
  for (int i = 0; i < 2 * N; i++) c0[i] = c[i];
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, N);
  fz_check_arr("constant c unchanged", c, c0, 2 * N, 0);
  double t = 0;
  for (int k = 0; k < 3; k++) t += c[2 * N - 3 + k] * x[N - 3 + k];
  double th = 1 - std::tanh(t) * std::tanh(t);
  for (int i = 0; i < N; i++) want[i] += 2 * c[i] * x[i];
  for (int i = 0; i < N - 1; i++) {
    want[i] += c[N + i] * x[i + 1];
    want[i + 1] += c[N + i] * x[i];
  }
  for (int k = 0; k < 3; k++) want[N - 3 + k] += th * c[2 * N - 3 + k];
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  fz_fd_grad_of([&] { return energy(x, c, N); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {0.1, -0.4, 0.7, 0.2, -0.9}, dv = 0;
  for (int i = 0; i < N; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, v, enzyme_const, c,
                                       enzyme_const, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
