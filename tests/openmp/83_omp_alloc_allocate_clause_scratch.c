// OMP_THREADS: 1 2 3
// OPT: O0 O2
// OpenMP 5 memory allocators in a differentiated region: each thread's scratch row comes
// from `omp_alloc(bytes, omp_default_mem_alloc)` and goes back with `omp_free`, a
// `private` array with an `allocate(omp_default_mem_alloc: tmp)` clause (clang lowers
// it to `__kmpc_alloc`/`__kmpc_free`), and an `omp_aligned_alloc` buffer outside the
// region. A smoothing stencil writes the scratch, the loss reads it. Reverse mode against
// central finite differences of the serial program; forward mode by the dot-product
// identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 30
#define W 6

double loss(const double *x, int n) {
  double *y = (double *)omp_aligned_alloc(64, n * sizeof(double), omp_default_mem_alloc);
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] + 0.5 * x[(i + 3) % n];
  double e = 0;
#pragma omp parallel reduction(+ : e)
  {
    double *row = (double *)omp_alloc(W * sizeof(double), omp_default_mem_alloc);
    double tmp[W];
#pragma omp for
    for (int b = 0; b < n / W; b++) {
      for (int j = 0; j < W; j++) row[j] = y[b * W + j] * (1.0 + 0.1 * j);
      for (int j = 0; j < W; j++) tmp[j] = row[j] + 0.25 * row[(j + 1) % W] - 0.25 * row[(j + W - 1) % W];
      for (int j = 0; j < W; j++) e += tmp[j] * tmp[j] * cos(x[b * W + j]);
    }
    omp_free(row, omp_default_mem_alloc);
  }
  double f = 0;
#pragma omp parallel for lastprivate(f) allocate(omp_default_mem_alloc : f)
  for (int i = 0; i < n; i++) f = y[i];
  omp_free(y, omp_default_mem_alloc);
  return e + f;
}

static double serial(const double *x, int n) {
  double y[N], row[W], tmp[W], e = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] + 0.5 * x[(i + 3) % n];
  for (int b = 0; b < n / W; b++) {
    for (int j = 0; j < W; j++) row[j] = y[b * W + j] * (1.0 + 0.1 * j);
    for (int j = 0; j < W; j++) tmp[j] = row[j] + 0.25 * row[(j + 1) % W] - 0.25 * row[(j + W - 1) % W];
    for (int j = 0; j < W; j++) e += tmp[j] * tmp[j] * cos(x[b * W + j]);
  }
  return e + y[n - 1];
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(83);
  fz_fill(xs, N, -0.9, 0.9);
  double g[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
