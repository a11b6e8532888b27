// OPT: O0 O2
// CFLAGS: -std=c++17
// Iterator pairs over enzyme_const data with lambdas using the active x, as users write
// reductions: `std::accumulate(w.begin(), w.end(), 0.0, lambda)` over a constant
// `std::vector<double>` (the lambda captures x and an index by reference),
// `std::inner_product` of the constant weights with x, and `std::transform_reduce` over
// a constant `std::array` with a lambda taking each weight. Oracle: the analytic
// gradient, central differences, forward/reverse dot products; the weights unchanged.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

struct Weights {
  std::vector<double> w;
  std::array<double, 4> a;
};

double reduce(const double *x, const Weights *c) {
  int k = 0;
  double s1 = std::accumulate(c->w.begin(), c->w.end(), 0.0,
                              [&](double s, double wi) { return s + wi * std::exp(x[k++]); });
  double s2 = std::inner_product(c->w.begin(), c->w.end(), x, 0.0);
  double s3 = std::transform_reduce(c->a.begin(), c->a.end(), x, 0.0, std::plus<>(),
                                    [](double ai, double xi) { return ai * xi * xi; });
  return s1 + s2 * s2 + s3;
}

extern int enzyme_dup, enzyme_const;
#define N 4

int main() {
  Weights c{{0.5, -1.0, 0.25, 2.0}, {1.5, 0.3, -0.7, 0.9}};
  const Weights c0 = c;
  double x[N] = {0.2, -0.4, 0.6, 0.1}, dx[N] = {0}, fd[N], want[N];
  __enzyme_autodiff<void>((void *)reduce, enzyme_dup, x, dx, enzyme_const, &c);
  for (int i = 0; i < N; i++) {
    fz_check("constant w unchanged", c.w[i], c0.w[i], 0);
    fz_check("constant a unchanged", c.a[i], c0.a[i], 0);
  }
  double s2 = 0;
  for (int i = 0; i < N; i++) s2 += c.w[i] * x[i];
  for (int i = 0; i < N; i++)
    want[i] = c.w[i] * std::exp(x[i]) + 2 * s2 * c.w[i] + 2 * c.a[i] * x[i];
  fz_check_arr("dx analytic", dx, want, N, 1e-12);
  fz_fd_grad_of([&] { return reduce(x, &c); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {0.3, 0.9, -0.5, 0.2}, dv = 0;
  for (int i = 0; i < N; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)reduce, enzyme_dup, x, v, enzyme_const, &c);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
