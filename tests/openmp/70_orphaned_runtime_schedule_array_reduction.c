// OMP_THREADS: 1 2
// OPT: O0 O2
// Worksharing as a library of kernels writes it: a parallel region (num_threads(3)) that
// calls orphaned kernels, each with its own `#pragma omp for`: one with
// `schedule(runtime)` (the schedule set by omp_set_schedule to dynamic,2 before the
// derivative), one with an array-section reduction `reduction(+ : h[:nb])` whose length
// is a run-time argument; then a loop of the region itself with `firstprivate` of a
// small shared array of weights a `single` computed from the data and `lastprivate` of
// the last iterate; a `single copyprivate` broadcast of a value read
// from the data; and a second region with an `if(n > 1000)` clause (false: serialized).
// Against the same computation written serially (value 1e-12), central finite
// differences of the serial program, and forward mode by the dot-product identity.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 17
#define NB 4

static void scale_kernel(const double *x, double *y, int n, double c) {
#pragma omp for schedule(runtime)
  for (int i = 0; i < n; i++) y[i] = c * x[i] * x[i] + sin(x[(i + 1) % n]);
}

static void histogram_kernel(const double *y, double *h, int n, int nb) {
#pragma omp for reduction(+ : h[:nb])
  for (int i = 0; i < n; i++) h[i % nb] += y[i] * (1.0 + 0.1 * i);
}

double loss(const double *x, int n, int nb) {
  double y[N], z[N], h[NB], last = 0, c = 0, t = 0, w[3] = {0, -0.25, 0};
  for (int b = 0; b < nb; b++) h[b] = 0;
#pragma omp parallel num_threads(3)
  {
    double cc;
#pragma omp single copyprivate(cc)
    cc = 1.0 + 0.5 * x[0] * x[0];
#pragma omp single
    c = cc;
    scale_kernel(x, y, n, cc);
    histogram_kernel(y, h, n, nb);
#pragma omp single
    {
      w[0] = 0.5 * y[1];
      w[2] = 0.125 * y[2] * y[2];
    }
#pragma omp for firstprivate(w) lastprivate(last)
    for (int i = 0; i < n; i++) {
      z[i] = w[i % 3] * y[i] + w[(i + 1) % 3] * y[(i + 2) % n];
      last = z[i];
    }
  }
#pragma omp parallel for if (n > 1000) reduction(+ : t)
  for (int i = 0; i < n; i++) t += z[i] * z[i];
  double s = t + last * c;
  for (int b = 0; b < nb; b++) s += h[b] * h[b] / (b + 1);
  return s;
}

static double serial(const double *x, int n, int nb) {
  double y[N], z[N], h[NB], t = 0;
  for (int b = 0; b < nb; b++) h[b] = 0;
  double c = 1.0 + 0.5 * x[0] * x[0];
  for (int i = 0; i < n; i++) y[i] = c * x[i] * x[i] + sin(x[(i + 1) % n]);
  for (int i = 0; i < n; i++) h[i % nb] += y[i] * (1.0 + 0.1 * i);
  double w[3] = {0.5 * y[1], -0.25, 0.125 * y[2] * y[2]};
  for (int i = 0; i < n; i++) z[i] = w[i % 3] * y[i] + w[(i + 1) % 3] * y[(i + 2) % n];
  double last = z[n - 1];
  for (int i = 0; i < n; i++) t += z[i] * z[i];
  double s = t + last * c;
  for (int b = 0; b < nb; b++) s += h[b] * h[b] / (b + 1);
  return s;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N, NB);
}

int main(void) {
  fz_seed(70);
  fz_fill(xs, N, -0.9, 0.9);
  omp_set_schedule(omp_sched_dynamic, 2);
  double g[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N, NB), serial(xs, N, NB), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N, enzyme_const, NB);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N, enzyme_const, NB);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
