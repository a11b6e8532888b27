// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Doacross loops (`for ordered(n)` with `ordered depend(sink: ...)` and `ordered
// depend(source)`), the OpenMP way to parallelize a recurrence as a wavefront: a 1-D
// Gauss-Seidel-like sweep `u[k] = a u[k] + b sin(u[k-1])` with one sink, and a 2-D
// wavefront `u[i][j]` from `u[i-1][j]` and `u[i][j-1]` with two sinks per iteration, work
// before the first wait and a write of another array after the post. Before hpc40 the
// doacross calls were copied as inactive: the reverse iterations ran in any order and the
// gradient was silently wrong at 2 and 4 threads. Reverse mode against central finite
// differences of the serial program, forward mode by the dot-product identity, and a
// second gradient equal to the first.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 16
#define M 6
#define NX (N + M * M)

double loss(const double *x, int n) {
  double u[N], v[M][M], w[M][M];
  for (int k = 0; k < n; k++) u[k] = x[k];
#pragma omp parallel for ordered(1) schedule(dynamic, 2)
  for (int k = 1; k < n; k++) {
#pragma omp ordered depend(sink : k - 1)
    u[k] = 0.5 * u[k] + 0.4 * sin(u[k - 1]);
#pragma omp ordered depend(source)
  }
  const double *y = x + n;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) v[i][j] = y[i * M + j] + 0.1 * u[(i + j) % n], w[i][j] = 0;
#pragma omp parallel for ordered(2) schedule(static, 1)
  for (int i = 1; i < M; i++)
    for (int j = 1; j < M; j++) {
      double pre = 0.3 * y[i * M + j] * y[i * M + j];
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      v[i][j] = pre + 0.5 * sin(v[i - 1][j]) + 0.4 * v[i][j - 1] * v[i][j];
      v[i][j] *= 1.0 + 0.01 * i;
#pragma omp ordered depend(source)
      w[i][j] = v[i][j] * v[i][j];
    }
  double s = 0;
  for (int k = 0; k < n; k++) s += u[k] * u[k];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) s += v[i][j] * (1 + 0.1 * j) + 0.5 * w[i][j];
  return s;
}

static double serial(const double *x, int n) {
  double u[N], v[M][M], w[M][M];
  for (int k = 0; k < n; k++) u[k] = x[k];
  for (int k = 1; k < n; k++) u[k] = 0.5 * u[k] + 0.4 * sin(u[k - 1]);
  const double *y = x + n;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) v[i][j] = y[i * M + j] + 0.1 * u[(i + j) % n], w[i][j] = 0;
  for (int i = 1; i < M; i++)
    for (int j = 1; j < M; j++) {
      double pre = 0.3 * y[i * M + j] * y[i * M + j];
      v[i][j] = pre + 0.5 * sin(v[i - 1][j]) + 0.4 * v[i][j - 1] * v[i][j];
      v[i][j] *= 1.0 + 0.01 * i;
      w[i][j] = v[i][j] * v[i][j];
    }
  double s = 0;
  for (int k = 0; k < n; k++) s += u[k] * u[k];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) s += v[i][j] * (1 + 0.1 * j) + 0.5 * w[i][j];
  return s;
}

static double xs[NX];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(77);
  fz_fill(xs, NX, -0.9, 0.9);
  double g[NX], g2[NX], v[NX];
  fz_zero(g, NX);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < NX; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, NX, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < NX; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  fz_zero(g2, NX);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g2, enzyme_const, N);
  fz_check_arr("second gradient", g2, g, NX, 1e-12);
  return fz_finish();
}
