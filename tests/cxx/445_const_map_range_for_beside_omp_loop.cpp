// OPT: O0 O2
// CFLAGS: -std=c++17
// ARGS: -fopenmp
// A range-for over a `const std::map<int, double> &` passed enzyme_const, in a function
// that also runs an OpenMP parallel reduction (difftest's cxx seeds 3044 and 3074,
// reduced). At -O0 the map's `begin()`/`end()` iterators live in stack slots that have
// shadows, so run-time activity makes them their own shadows; the parallel region is
// given such memory. cxx37 refused this at -O0 naming `__kmpc_fork_call`; since ref37 the
// outlined region is differentiated under the same run-time checks as a called function.
// Oracles: the analytic gradient, central differences, forward mode against the gradient
// along a direction, at 1 and 3 threads; the map unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <omp.h>

double f(double *x, const std::map<int, double> &tab, int n) {
  double s = 0;
  for (const auto &kv : tab) s += kv.second * std::sin(x[kv.first % n]);
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) t += x[i] * x[i] * (i + 1);
  return s + t;
}

extern int enzyme_dup, enzyme_const;
#define N 5

int main() {
  std::map<int, double> tab{{0, 1.0}, {3, 2.0}, {7, -0.5}, {9, 0.25}};
  const std::map<int, double> tab0 = tab;
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    double x[N] = {0.4, -0.9, 1.3, 0.2, 0.7}, dx[N] = {0}, fd[N], want[N] = {0};
    __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx, enzyme_const, &tab, enzyme_const, N);
    fz_check("constant map unchanged", tab == tab0, 1, 0);
    for (int i = 0; i < N; i++) want[i] = 2 * x[i] * (i + 1);
    for (const auto &kv : tab0) want[kv.first % N] += kv.second * std::cos(x[kv.first % N]);
    fz_check_arr("dx analytic", dx, want, N, 1e-12);
    fz_fd_grad_of([&] { return f(x, tab, N); }, x, N, fd);
    fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
    double v[N] = {0.6, 0.1, -0.3, 0.8, -0.2}, dv = 0;
    for (int i = 0; i < N; i++) dv += want[i] * v[i];
    double jv = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, v, enzyme_const, &tab,
                                         enzyme_const, N);
    fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
    fz_check("constant map unchanged (forward)", tab == tab0, 1, 0);
  }
  return fz_finish();
}
