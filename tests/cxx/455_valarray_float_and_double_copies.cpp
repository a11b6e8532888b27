// OPT: O0 O2
// std::valarray<double> built from a local array (`std::valarray<double> va(sa, n)`) in a
// program that also uses std::valarray<float> elsewhere, differentiated or not: at -O0
// every valarray<T>'s destructor calls the one non-template
// `std::__valarray_release_memory(void *)`, and type analysis (not context-sensitive)
// merged the float and the double buffers through its parameter into one conflicting
// tree, so the double copy in `_Array_copy_ctor<double, true>::_S_do_it` was refused
// ("cannot deduce the type of the memory copied here (conflicting uses ...)"; difftest C++
// seeds 7004, 8106, 9102, 9118 with a long double valarray in the reference). A
// parameter that is only freed is no longer linked with its callers' arguments.
// Oracles: analytic gradients, central finite differences.
#include "fz_cxx.h"
#include <valarray>

#define N 6

// A float smoothing step, run as plain code (never differentiated).
static float smooth_sum(const float *x, int n) {
  std::valarray<float> v(x, n);
  v = 0.5f * v + 0.25f * v.cshift(1) + 0.25f * v.cshift(-1);
  return v.sum();
}

// sum_k c_k^2 with c_k = 0.6 (sin x_k + 0.5), from a local array copied into a valarray.
double feature_norm(const double *x, int n) {
  double sa[N];
  for (int q = 0; q < n; q++) sa[q] = sin(x[q]) + 0.5;
  std::valarray<double> va(sa, n);
  va *= 0.6;
  return (va * va).sum();
}

// The same with a valarray<float> differentiated beside: sum_k 0.5 x_k^2 + float part.
double mixed(const double *x, const float *xf, int n) {
  std::valarray<double> vd(x, n);
  std::valarray<float> vf(xf, n);
  return 0.5 * (vd * vd).sum() + (double)(vf * vf).sum();
}

int main() {
  double x[N], g[N], fd[N];
  float xf[N], gf[N];
  fz_seed(455);
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    xf[i] = (float)fz_uniform(-1, 1);
  }
  printf("smoothed float sum %g\n", smooth_sum(xf, N));

  memset(g, 0, sizeof g);
  __enzyme_autodiff<void>((void *)feature_norm, enzyme_dup, x, g, enzyme_const, N);
  fz_fd_grad_of([&] { return feature_norm(x, N); }, x, N, fd);
  for (int i = 0; i < N; i++) {
    double c = 0.6 * (sin(x[i]) + 0.5);
    fz_check("valarray(local, n): analytic", g[i], 2 * c * 0.6 * cos(x[i]), 1e-12);
    fz_check("valarray(local, n): fd", g[i], fd[i], 1e-6);
  }

  memset(g, 0, sizeof g);
  memset(gf, 0, sizeof gf);
  __enzyme_autodiff<void>((void *)mixed, enzyme_dup, x, g, enzyme_dup, xf, gf, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    fz_check("valarray<double>(x, n): analytic", g[i], x[i], 1e-12);
    fz_check("valarray<float>(xf, n): analytic", gf[i], 2.0 * xf[i], 1e-6);
  }
  return fz_finish();
}
