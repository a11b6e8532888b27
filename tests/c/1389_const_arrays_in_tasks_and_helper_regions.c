// OPT: O0 O2
// ARGS: -fopenmp
// `enzyme_const` arrays read inside explicit tasks (`task` created by a `single`, each
// adding its term atomically into a shared sum) and inside a noinline helper that runs
// its own `parallel for` (the helper is given the constant array and the active state,
// its region captures both by reference); a coefficient pointer chosen at run time
// (`c = flip ? w : x`) is handed to the helper. Reverse and forward mode at 1, 2 and 4
// threads, both choices; oracles: the serial program (the same terms without OpenMP,
// differentiated too) to 1e-12, central differences, the dot-product identity, the
// constants unchanged.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double region_sum(const double *c, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += c[i] * x[(i + 1) % n] * x[i];
  return s;
}

double model(double *x, const double *w, const double *b, int n, int flip) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(s)
    {
      double t = w[i] * sin(x[i]) + b[i] * x[i] * x[i];
#pragma omp atomic
      s += t;
    }
  }
  const double *c = flip ? w : x;
  return s + region_sum(c, x, n) * region_sum(b, x, n);
}

static double serial_sum(const double *c, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += c[i] * x[(i + 1) % n] * x[i];
  return s;
}

double model_serial(double *x, const double *w, const double *b, int n, int flip) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * sin(x[i]) + b[i] * x[i] * x[i];
  const double *c = flip ? w : x;
  return s + serial_sum(c, x, n) * serial_sum(b, x, n);
}

enum { N = 7 };
static double X[N], W[N], B[N];
static int FLIP;
static double eval(void *ctx) {
  (void)ctx;
  return model_serial(X, W, B, N, FLIP);
}

int main(void) {
  fz_seed(1389);
  double x0[N], w0[N], b0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(W, N, -0.7, 0.7);
  fz_fill(B, N, -0.5, 0.9);
  for (int i = 0; i < N; i++) w0[i] = W[i], b0[i] = B[i];
  for (int flip = 0; flip <= 1; flip++) {
    FLIP = flip;
    for (int i = 0; i < N; i++) X[i] = x0[i];
    double fd[N], x[N], ds[N] = {0};
    fz_fd_grad(eval, 0, X, N, fd);
    for (int i = 0; i < N; i++) x[i] = x0[i];
    __enzyme_autodiff((void *)model_serial, enzyme_dup, x, ds, enzyme_const, W, enzyme_const, B,
                      N, flip);
    fz_check_arr("serial program vs central differences", ds, fd, N, 1e-6);
    const int teams[3] = {1, 2, 4};
    for (int t = 0; t < 3; t++) {
      omp_set_num_threads(teams[t]);
      double dx[N] = {0};
      __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, W, enzyme_const, B, N,
                        flip);
      fz_check_arr(flip ? "c = w: gradient vs serial program" : "c = x: gradient vs serial program",
                   dx, ds, N, 1e-12);
      double v[N], dot = 0;
      for (int i = 0; i < N; i++) v[i] = 0.1 * i - 0.3, dot += v[i] * dx[i];
      double tan =
          __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, W, enzyme_const, B, N,
                           flip);
      fz_check("forward = <gradient, v>", tan, dot, 1e-10);
      int same = 1;
      for (int i = 0; i < N; i++) same &= W[i] == w0[i] && B[i] == b0[i] && x[i] == x0[i];
      fz_check("enzyme_const arrays and x unchanged", same, 1, 0);
    }
  }
  return fz_finish();
}
