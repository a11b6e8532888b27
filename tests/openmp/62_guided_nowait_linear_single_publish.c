// OMP_THREADS: 1 3
// OPT: O0 O2
// Worksharing clauses not covered elsewhere, on values from the input: a `for
// schedule(guided, 2) nowait` loop followed by an explicit `barrier` before a second
// `for` of the same region reads what the first wrote; a `parallel for linear(j : 2)`
// whose linear variable indexes the input; an active value written by one thread
// (`single`, whose implicit barrier publishes it) and read by every thread, each thread
// adding what it read times its own slice (with `atomic write`/`atomic read` of it:
// tests/openmp/63). Reverse mode against central finite
// differences of the same formula written serially; forward mode by the dot-product
// identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24

double loss(const double *x, int n) {
  double y[N], y2[N], z[N / 2], shared_max = 0, e = 0;
#pragma omp parallel
  {
#pragma omp for schedule(guided, 2) nowait
    for (int k = 0; k < n; k++) y[k] = sin(x[k]) * (1.0 + 0.05 * k);
#pragma omp barrier
#pragma omp for schedule(static)
    for (int k = 0; k < n; k++) y2[k] = y[k] * y[(k + 5) % n] + x[k];
  }
  int j = 0;
#pragma omp parallel for linear(j : 2)
  for (int i = 0; i < n / 2; i++) {
    z[i] = x[j] * x[j + 1] + y2[j];
    j += 2;
  }
#pragma omp parallel reduction(+ : e)
  {
#pragma omp single
    shared_max = z[0] * z[1];
    double seen = shared_max;
#pragma omp for
    for (int i = 0; i < n / 2; i++) e += seen * z[i] + z[i] * z[i];
  }
  return e;
}

static double serial(const double *x, int n) {
  double y[N], z[N / 2], e = 0;
  for (int k = 0; k < n; k++) y[k] = sin(x[k]) * (1.0 + 0.05 * k);
  double y2[N];
  for (int k = 0; k < n; k++) y2[k] = y[k] * y[(k + 5) % n] + x[k];
  for (int i = 0; i < n / 2; i++) z[i] = x[2 * i] * x[2 * i + 1] + y2[2 * i];
  double m = z[0] * z[1];
  for (int i = 0; i < n / 2; i++) e += m * z[i] + z[i] * z[i];
  return e;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(62);
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
