// OPT: O0 O2
// ARGS: -fopenmp
// Lambda closures holding pointers, called inside OpenMP regions: `term` captures the
// `enzyme_const` weights w and the active x by reference (its closure holds the
// addresses of their homes at -O0), `upd` writes y through its by-reference capture,
// `byval` copies the pointers w and y into its closure (`[w, y, n]`). Each region
// captures the closure by reference, so the constant pointer sits in memory that has a
// shadow: runtime activity (it is its own shadow, the regions' derivatives guarded).
// Reverse and forward mode at 1, 2 and 4 threads; oracles: the same lambdas called in
// serial loops (differentiated too) to 1e-12, central differences, the dot-product
// identity, the weights unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <omp.h>

extern int enzyme_dup, enzyme_const;

template <bool Parallel>
double loss(double *x, double *y, const double *w, int n) {
  auto term = [&](int i) {
    return w[i] * std::sin(x[i]) + w[(i + 1) % n] * x[i] * x[(i + 2) % n];
  };
  auto upd = [&](int i) { y[i] = w[i] * x[i] * x[i] + std::cos(w[i] + x[i]); };
  auto byval = [w, y, n](int i) { return w[(i + 3) % n] * y[i] * y[i]; };
  double s = 0, t = 0;
  if (Parallel) {
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += term(i);
#pragma omp parallel for
    for (int i = 0; i < n; i++) upd(i);
#pragma omp parallel for reduction(+ : t)
    for (int i = 0; i < n; i++) t += byval(i);
  } else {
    for (int i = 0; i < n; i++) s += term(i);
    for (int i = 0; i < n; i++) upd(i);
    for (int i = 0; i < n; i++) t += byval(i);
  }
  return s + t;
}

const int N = 8;

int main() {
  fz_seed(460);
  double x0[N], W[N], W0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(W, N, -0.5, 0.9);
  for (int i = 0; i < N; i++) W0[i] = W[i];
  double X[N];
  for (int i = 0; i < N; i++) X[i] = x0[i];
  double fd[N];
  fz_fd_grad_of(
      [&] {
        double y[N];
        return loss<false>(X, y, W, N);
      },
      X, N, fd);
  double x[N], y[N], ds[N] = {0}, dys[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  __enzyme_autodiff<void>((void *)loss<false>, enzyme_dup, x, ds, enzyme_dup, y, dys,
                          enzyme_const, W, N);
  fz_check_arr("serial program vs central differences", ds, fd, N, 1e-6);
  const int teams[3] = {1, 2, 4};
  for (int k = 0; k < 3; k++) {
    omp_set_num_threads(teams[k]);
    double dx[N] = {0}, dy[N] = {0};
    __enzyme_autodiff<void>((void *)loss<true>, enzyme_dup, x, dx, enzyme_dup, y, dy,
                            enzyme_const, W, N);
    fz_check_arr("gradient vs serial program", dx, ds, N, 1e-12);
    double v[N], ty[N], dot = 0;
    for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * dx[i];
    double tan = __enzyme_fwddiff<double>((void *)loss<true>, enzyme_dup, x, v, enzyme_dup, y,
                                          ty, enzyme_const, W, N);
    fz_check("forward = <gradient, v>", tan, dot, 1e-10);
    int same = 1;
    for (int i = 0; i < N; i++) same &= W[i] == W0[i] && x[i] == x0[i];
    fz_check("enzyme_const weights and x unchanged", same, 1, 0);
  }
  return fz_finish();
}
