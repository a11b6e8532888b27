// OPT: O0 O2
// ARGS: -fopenmp
// `#pragma omp parallel for reduction(+ : ...)` loops whose operands are constant: an
// `enzyme_const` array times the active state into a scalar, an array-section reduction
// `h[:nb]` of weighted terms, a `std::array` reduced by a user-declared reduction
// (`declare reduction`), and a `[=]` closure holding a pointer chosen at run time
// between the constant weights and the active state (its copy in the closure is what the
// region reads). Reverse and forward mode at 1, 2 and 4 threads, both choices; oracles:
// the serial program (the same loops without OpenMP, differentiated too) to 1e-12,
// central differences, the dot-product identity, the weights unchanged.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <omp.h>

extern int enzyme_dup, enzyme_const;

using Pair = std::array<double, 2>;
#pragma omp declare reduction(pairsum : Pair : omp_out[0] += omp_in[0], omp_out[1] += omp_in[1]) \
    initializer(omp_priv = Pair{0.0, 0.0})

const int NB = 3;

template <bool Parallel>
double loss(double *x, const double *w, int n, int self) {
  const double *c = self ? x : w;
  auto wave = [=](int i) { return c[i] * std::sin(x[(i + 1) % n]); };
  double s = 0, r = 0, h[NB] = {0, 0, 0};
  Pair p{0.0, 0.0};
  if (Parallel) {
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
#pragma omp parallel for reduction(+ : h[:NB])
    for (int i = 0; i < n; i++) h[i % NB] += w[(i + 1) % n] * std::cos(x[i]);
#pragma omp parallel for reduction(pairsum : p)
    for (int i = 0; i < n; i++) {
      p[0] += w[i] * x[i];
      p[1] += w[(i + 2) % n] * x[i] * x[(i + 1) % n];
    }
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) r += wave(i) * x[i];
  } else {
    for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
    for (int i = 0; i < n; i++) h[i % NB] += w[(i + 1) % n] * std::cos(x[i]);
    for (int i = 0; i < n; i++) {
      p[0] += w[i] * x[i];
      p[1] += w[(i + 2) % n] * x[i] * x[(i + 1) % n];
    }
    for (int i = 0; i < n; i++) r += wave(i) * x[i];
  }
  double out = s + p[0] * p[1] + r;
  for (int b = 0; b < NB; b++) out += h[b] * h[b];
  return out;
}

const int N = 8;

int main() {
  fz_seed(462);
  double x0[N], W[N], W0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(W, N, -0.6, 0.8);
  for (int i = 0; i < N; i++) W0[i] = W[i];
  for (int self = 0; self <= 1; self++) {
    double X[N], fd[N];
    for (int i = 0; i < N; i++) X[i] = x0[i];
    fz_fd_grad_of([&] { return loss<false>(X, W, N, self); }, X, N, fd);
    double x[N], ds[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    __enzyme_autodiff<void>((void *)loss<false>, enzyme_dup, x, ds, enzyme_const, W, N, self);
    fz_check_arr("serial program vs central differences", ds, fd, N, 1e-6);
    const int teams[3] = {1, 2, 4};
    for (int t = 0; t < 3; t++) {
      omp_set_num_threads(teams[t]);
      double dx[N] = {0};
      __enzyme_autodiff<void>((void *)loss<true>, enzyme_dup, x, dx, enzyme_const, W, N, self);
      fz_check_arr(self ? "c = x: gradient vs serial program" : "c = w: gradient vs serial program",
                   dx, ds, N, 1e-12);
      double v[N], dot = 0;
      for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * dx[i];
      double tan = __enzyme_fwddiff<double>((void *)loss<true>, enzyme_dup, x, v, enzyme_const, W,
                                            N, self);
      fz_check("forward = <gradient, v>", tan, dot, 1e-10);
      int same = 1;
      for (int i = 0; i < N; i++) same &= W[i] == W0[i] && x[i] == x0[i];
      fz_check("enzyme_const weights and x unchanged", same, 1, 0);
    }
  }
  return fz_finish();
}
