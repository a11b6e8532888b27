// OMP_THREADS: 1 2 4
// OPT: O0 O2
// `long double` accumulators in OpenMP code, as codes that want extra precision write
// them: per-thread `long double` partial sums combined into a shared `long double` in a
// `critical` section, and a shared `long double` scale read by every thread of a
// `parallel for`. The adjoint of a shared `long double` that several threads read was
// skipped by the team's reverse sweep (x86-64 has no atomic add of an 80-bit float): a
// silently wrong gradient at 2 and 4 threads, right at 1 (hpc43; now added under the
// runtime's lock). Reverse mode against central finite differences of the serial
// program in double, forward mode by the dot-product identity. (A `reduction(+:)` or an
// `atomic` update of a `long double` is refused: errors/hpc43_omp_long_double_atomic.)
#include <omp.h>
#include <math.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define N 25

double loss(const double *x, int n) {
  long double acc = 0, scale = 0, sq = 0;
  for (int i = 0; i < n; i++) scale += (long double)x[i] * (0.2 + 0.01 * i);
  double y[N];
#pragma omp parallel
  {
    long double part = 0, psq = 0;
#pragma omp for
    for (int i = 0; i < n; i++) {
      y[i] = (double)(scale * x[(i + 1) % n]);
      part += (long double)x[i] * x[(i + 1) % n];
      psq += (long double)y[i] * y[i];
    }
#pragma omp critical
    {
      acc += part;
      sq += psq;
    }
  }
  return (double)(acc * acc) + (double)sq * 0.5 + sin((double)scale);
}

static double serial(const double *x, int n) {
  double acc = 0, scale = 0, sq = 0;
  for (int i = 0; i < n; i++) scale += x[i] * (0.2 + 0.01 * i);
  for (int i = 0; i < n; i++) {
    double y = scale * x[(i + 1) % n];
    acc += x[i] * x[(i + 1) % n];
    sq += y * y;
  }
  return acc * acc + sq * 0.5 + sin(scale);
}

static double xs[N];
static double eval(void *ctx) { (void)ctx; return serial(xs, N); }

int main(void) {
  fz_seed(98);
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
