// OPT: O0 O2
// ARGS: -fopenmp
// A stencil object built in the differentiated function holds an `enzyme_const`
// coefficient array and a pointer to an `enzyme_const` `std::vector` (its data read
// through the vector's `operator[]`); its `const` method runs a `parallel for`
// reduction that calls another method (the region captures `this`). Beside it, a
// `parallel for` reduction calls a noinline helper given the constant array, and a
// `std::function` built from a `[&]` lambda reads both constants in a serial loop.
// Reverse and forward mode at 1, 2 and 4 threads; oracles: the serial program (the same
// members without OpenMP, differentiated too) to 1e-12, central differences, the
// dot-product identity, both constants unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <omp.h>
#include <vector>

extern int enzyme_dup, enzyme_const;

struct Stencil {
  const double *c;
  const std::vector<double> *k;
  int n;
  double apply(const double *u, int i) const {
    return c[i] * u[i] + (*k)[i % 3] * u[(i + 1) % n] * u[(i + n - 1) % n];
  }
  template <bool Parallel>
  double energy(const double *u) const {
    double s = 0;
    if (Parallel) {
#pragma omp parallel for reduction(+ : s)
      for (int i = 0; i < n; i++) {
        double a = apply(u, i);
        s += a * a;
      }
    } else {
      for (int i = 0; i < n; i++) {
        double a = apply(u, i);
        s += a * a;
      }
    }
    return s;
  }
};

__attribute__((noinline)) double helper(const double *w, const double *u, int i) {
  return w[i] * std::tanh(u[i]);
}

template <bool Parallel>
double loss(double *u, const double *c, const std::vector<double> &k, int n) {
  Stencil st{c, &k, n};
  double e = st.energy<Parallel>(u);
  double h = 0;
  if (Parallel) {
#pragma omp parallel for reduction(+ : h)
    for (int i = 0; i < n; i++) h += helper(c, u, i) * u[(i + 2) % n];
  } else {
    for (int i = 0; i < n; i++) h += helper(c, u, i) * u[(i + 2) % n];
  }
  std::function<double(int)> g = [&](int i) { return helper(c, u, i) + k[i % 3] * u[i]; };
  double q = 0;
  for (int i = 0; i < n; i++) q += g(i);
  return e + h + q;
}

const int N = 7;

int main() {
  fz_seed(461);
  double u0[N], C[N], C0[N];
  std::vector<double> K = {0.3, -0.2, 0.6}, K0 = K;
  fz_fill(u0, N, -1, 1);
  fz_fill(C, N, -0.5, 0.9);
  for (int i = 0; i < N; i++) C0[i] = C[i];
  double U[N];
  for (int i = 0; i < N; i++) U[i] = u0[i];
  double fd[N];
  fz_fd_grad_of([&] { return loss<false>(U, C, K, N); }, U, N, fd);
  double u[N], ds[N] = {0};
  for (int i = 0; i < N; i++) u[i] = u0[i];
  __enzyme_autodiff<void>((void *)loss<false>, enzyme_dup, u, ds, enzyme_const, C, enzyme_const,
                          &K, N);
  fz_check_arr("serial program vs central differences", ds, fd, N, 1e-6);
  const int teams[3] = {1, 2, 4};
  for (int t = 0; t < 3; t++) {
    omp_set_num_threads(teams[t]);
    double du[N] = {0};
    __enzyme_autodiff<void>((void *)loss<true>, enzyme_dup, u, du, enzyme_const, C, enzyme_const,
                            &K, N);
    fz_check_arr("gradient vs serial program", du, ds, N, 1e-12);
    double v[N], dot = 0;
    for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * du[i];
    double tan = __enzyme_fwddiff<double>((void *)loss<true>, enzyme_dup, u, v, enzyme_const, C,
                                          enzyme_const, &K, N);
    fz_check("forward = <gradient, v>", tan, dot, 1e-10);
    int same = K == K0;
    for (int i = 0; i < N; i++) same &= C[i] == C0[i] && u[i] == u0[i];
    fz_check("enzyme_const array and vector unchanged", same, 1, 0);
  }
  return fz_finish();
}
