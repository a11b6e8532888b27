// OMP_THREADS: 1 3
// OPT: O0 O2
// OpenMP 5.1 loop transformations and constructs on values from the input: a
// `parallel for` over a loop nest blocked by `#pragma omp tile sizes(4, 3)` (clang
// rewrites the nest into tile loops before outlining), `#pragma omp unroll partial(3)`
// inside a worksharing loop (a trip count that is not a multiple of 3: the remainder
// iterations), a `parallel proc_bind(close)` region whose threads share a `scope`
// construct with `reduction(+ : s)`, and `unroll full` of a constant-count inner loop.
// Reverse mode against central finite differences of the same formula written
// serially; forward mode by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define R 7
#define C 5
#define N (R * C)

double loss(const double *x, int n) {
  double y[R][C], z[N], s = 0, e = 0;
#pragma omp parallel for
#pragma omp tile sizes(4, 3)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) y[i][j] = x[i * C + j] * x[(j * R + i) % n] + 0.3 * i;
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    double a = 0;
#pragma omp unroll partial(3)
    for (int m = 0; m <= k % 7; m++) a += sin(y[(k + m) % R][m % C]) * (1.0 + 0.1 * m);
    z[k] = a;
  }
#pragma omp parallel proc_bind(close)
  {
#pragma omp scope reduction(+ : s)
    {
#pragma omp for
      for (int k = 0; k < n; k++) {
        double w = 0;
#pragma omp unroll full
        for (int q = 0; q < 3; q++) w += z[(k + q) % n] * (q + 1);
        s += w * w;
      }
    }
  }
#pragma omp parallel for reduction(+ : e)
  for (int k = 0; k < n; k++) e += z[k] * x[k];
  return e + 0.01 * s;
}

static double serial(const double *x, int n) {
  double y[R][C], z[N], s = 0, e = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) y[i][j] = x[i * C + j] * x[(j * R + i) % n] + 0.3 * i;
  for (int k = 0; k < n; k++) {
    double a = 0;
    for (int m = 0; m <= k % 7; m++) a += sin(y[(k + m) % R][m % C]) * (1.0 + 0.1 * m);
    z[k] = a;
  }
  for (int k = 0; k < n; k++) {
    double w = 0;
    for (int q = 0; q < 3; q++) w += z[(k + q) % n] * (q + 1);
    s += w * w;
  }
  for (int k = 0; k < n; k++) e += z[k] * x[k];
  return e + 0.01 * s;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(60);
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
