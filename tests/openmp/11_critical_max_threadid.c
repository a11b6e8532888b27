// OMP_THREADS: 1 2
// OPT: O0 O2
// Patterns without a reduction clause: per-thread partial sums indexed by
// `omp_get_thread_num()` and combined after the region, a `reduction(max:)` of an
// inactive index-like value beside an active sum, an `omp critical` accumulation into a
// shared double, and `omp simd` inside a parallel loop. Checked against the analytic
// gradient and central finite differences.
#include <omp.h>
#include "fz_test.h"

#define N 200
#define MAXT 64

double partials(const double *x, int n) {
  double part[MAXT] = {0};
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) part[t] += x[i] * x[i] * x[i];
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t];
  return s;
}

double critical_sum(const double *x, int n) {
  double total = 0;
#pragma omp parallel
  {
    double mine = 0;
#pragma omp for
    for (int i = 0; i < n; i++) mine += sin(x[i]) * x[i];
#pragma omp critical
    total += mine;
  }
  return total;
}

double simd_inside(const double *x, int n) {
  double s = 0;
  int far = 0;
#pragma omp parallel for simd reduction(+ : s) reduction(max : far)
  for (int i = 0; i < n; i++) {
    s += exp(0.1 * x[i]) * x[i];
    if (i > far) far = i;
  }
  return s + far;
}

static double x[N];
static double eval_crit(void *ctx) {
  (void)ctx;
  return critical_sum(x, N);
}

int main(void) {
  fz_seed(311);
  fz_fill(x, N, -1, 1);
  double dx[N], want[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 3 * x[i] * x[i];
  fz_check_arr("d partials", dx, want, N, 1e-12);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)critical_sum, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = cos(x[i]) * x[i] + sin(x[i]);
  fz_check_arr("d critical", dx, want, N, 1e-12);
  for (int i = 0; i < N; i += 41) {
    char name[32];
    snprintf(name, sizeof name, "critical fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval_crit, 0, &x[i]), 1e-6);
  }

  fz_zero(dx, N);
  __enzyme_autodiff((void *)simd_inside, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = exp(0.1 * x[i]) * (1 + 0.1 * x[i]);
  fz_check_arr("d simd", dx, want, N, 1e-12);
  return fz_finish();
}
