// OMP_THREADS: 1 2 3
// OPT: O0 O2
// Per-thread partial sums as OpenMP users write them to avoid a reduction clause: a
// variable-length array `double part[omp_get_max_threads()][PAD]` (padded against false
// sharing) indexed by omp_get_thread_num() inside `omp parallel` + `omp for nowait`,
// combined serially after the region; a heap array of partials sized by
// omp_get_num_threads() inside the region (calloc'ed by `omp single`, whose implicit
// barrier publishes the pointer, freed after the region), and two named critical sections
// `critical(lo)`/`critical(hi)` guarding different accumulators (a sum, a running max).
// Reverse mode against central finite differences of the serial program, forward mode
// by the dot-product identity.
#include <omp.h>
#include <math.h>
#include <stdlib.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define N 23
#define PAD 8

double loss(const double *x, int n) {
  int nt = omp_get_max_threads();
  double part[nt][PAD];
  for (int t = 0; t < nt; t++) part[t][0] = 0;
  double *heap = 0, lo = 0, hi = -1e300;
  int used = 1;
#pragma omp parallel
  {
    int me = omp_get_thread_num();
#pragma omp for nowait
    for (int i = 0; i < n; i++) part[me][0] += x[i] * x[i] * (1 + 0.1 * i);
#pragma omp single
    {
      used = omp_get_num_threads();
      heap = calloc(used, sizeof(double));
    }
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++) {
      heap[omp_get_thread_num()] += sin(x[i]) * x[(i + 1) % n];
      if (x[i] < 0) {
#pragma omp critical(lo)
        lo += x[i] * x[i] * x[i];
      } else {
#pragma omp critical(hi)
        hi = fmax(hi, x[i] * (1.5 + 0.1 * i));
      }
    }
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t][0];
  for (int t = 0; t < used; t++) s += heap[t];
  free(heap);
  return s * s * 0.1 + lo + hi * hi;
}

static double serial(const double *x, int n) {
  double q = 0, lo = 0, hi = -1e300;
  for (int i = 0; i < n; i++) q += x[i] * x[i] * (1 + 0.1 * i);
  for (int i = 0; i < n; i++) q += sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++)
    if (x[i] < 0) lo += x[i] * x[i] * x[i];
    else hi = fmax(hi, x[i] * (1.5 + 0.1 * i));
  return q * q * 0.1 + lo + hi * hi;
}

static double xs[N];
static double eval(void *ctx) { (void)ctx; return serial(xs, N); }

int main(void) {
  fz_seed(92);
  fz_fill(xs, N, -1, 1);
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
