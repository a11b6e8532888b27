// OMP_THREADS: 1 2 4
// OPT: O0 O2
// A constant matrix passed as `enzyme_const` row pointers (`const double **`), an
// `enzyme_const` weights array, and a pointer a `single` publishes to the team at run
// time (`sel = pick ? w : x`: the constant weights or the active x) read by an
// array-section reduction `reduction(+ : h[:nb])` and a `nowait` scalar reduction in
// the same region. Reverse mode and vector forward mode (`enzyme_width` 2), both
// choices; oracles: the serial program differentiated too (1e-12), central differences
// of it, each lane by the dot-product identity, the constants unchanged.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv;
typedef struct {
  double d[2];
} v2;
extern v2 __enzyme_fwddiff_v2(void *, ...) __asm__("__enzyme_fwddiff");

double model(double *x, const double **rows, const double *w, int n, int nb, int pick) {
  double h[4] = {0, 0, 0, 0};
  const double *sel = 0;
  double s = 0;
#pragma omp parallel
  {
#pragma omp single
    sel = pick ? w : x;
#pragma omp for reduction(+ : h[:nb])
    for (int i = 0; i < n; i++) {
      double a = 0;
      for (int j = 0; j < n; j++) a += rows[i][j] * x[j];
      h[i % nb] += sel[i] * sin(a);
    }
#pragma omp for reduction(+ : s) nowait
    for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] * sel[(i + 1) % n];
  }
  for (int b = 0; b < nb; b++) s += h[b] * h[b];
  return s;
}

double model_serial(double *x, const double **rows, const double *w, int n, int nb, int pick) {
  double h[4] = {0, 0, 0, 0};
  const double *sel = pick ? w : x;
  double s = 0;
  for (int i = 0; i < n; i++) {
    double a = 0;
    for (int j = 0; j < n; j++) a += rows[i][j] * x[j];
    h[i % nb] += sel[i] * sin(a);
  }
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] * sel[(i + 1) % n];
  for (int b = 0; b < nb; b++) s += h[b] * h[b];
  return s;
}

enum { N = 6, NB = 3 };
static double X[N], M[N][N], W[N];
static const double *R[N];
static int PICK;
static double eval(void *ctx) {
  (void)ctx;
  return model_serial(X, R, W, N, NB, PICK);
}

int main(void) {
  fz_seed(75);
  double x0[N], m0[N * N], w0[N];
  fz_fill(x0, N, -1, 1);
  fz_fill(W, N, -0.5, 0.9);
  fz_fill(&M[0][0], N * N, -0.4, 0.4);
  for (int i = 0; i < N; i++) R[i] = M[i], w0[i] = W[i];
  for (int i = 0; i < N * N; i++) m0[i] = (&M[0][0])[i];
  for (int pick = 0; pick <= 1; pick++) {
    PICK = pick;
    for (int i = 0; i < N; i++) X[i] = x0[i];
    double fd[N];
    fz_fd_grad(eval, 0, X, N, fd);
    double x[N], dx[N] = {0}, ds[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, R, enzyme_const, W, N, NB,
                      pick);
    __enzyme_autodiff((void *)model_serial, enzyme_dup, x, ds, enzyme_const, R, enzyme_const, W,
                      N, NB, pick);
    fz_check_arr(pick ? "weights: gradient vs serial" : "x: gradient vs serial", dx, ds, N,
                 1e-12);
    fz_check_arr(pick ? "weights: gradient vs central differences"
                      : "x: gradient vs central differences",
                 dx, fd, N, 1e-6);
    double v[2 * N], d0 = 0, d1 = 0;
    for (int i = 0; i < N; i++) {
      v[i] = 0.1 * i - 0.3, v[N + i] = 0.2 - 0.05 * i;
      d0 += v[i] * dx[i], d1 += v[N + i] * dx[i];
    }
    v2 t = __enzyme_fwddiff_v2((void *)model, enzyme_width, 2, enzyme_dupv, sizeof(double) * N, x,
                               v, enzyme_const, R, enzyme_const, W, N, NB, pick);
    fz_check("forward lane 0 = <gradient, v0>", t.d[0], d0, 1e-10);
    fz_check("forward lane 1 = <gradient, v1>", t.d[1], d1, 1e-10);
    int same = 1;
    for (int i = 0; i < N; i++) same &= W[i] == w0[i] && x[i] == x0[i] && R[i] == M[i];
    for (int i = 0; i < N * N; i++) same &= (&M[0][0])[i] == m0[i];
    fz_check("enzyme_const matrix, rows, weights and x unchanged", same, 1, 0);
  }
  return fz_finish();
}
