// OMP_THREADS: 1 2
// `#pragma omp parallel for reduction(+:s)` with static and dynamic schedules: each
// thread's chunks are recorded on its own tape (dynamic chunks as the runtime handed
// them out) and reversed in a parallel region of the same size. The gradient is checked
// against the analytic formula and central finite differences; forward mode against the
// dot-product identity with the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double weighted_sumsq(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (1.0 + 0.01 * i);
  return s;
}

double dynamic_energy(const double *x, int n) {
  double e = 0;
#pragma omp parallel for schedule(dynamic, 7) reduction(+ : e)
  for (int i = 0; i < n; i++) e += sin(x[i]) * x[(i + 1) % n];
  return e;
}

#define N 500
static double x[N];

static double eval_dyn(void *ctx) {
  (void)ctx;
  return dynamic_energy(x, N);
}

int main(void) {
  fz_seed(11);
  fz_fill(x, N, -1, 1);
  double dx[N], want[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)weighted_sumsq, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2 * x[i] * (1.0 + 0.01 * i);
  fz_check_arr("d weighted_sumsq", dx, want, N, 1e-12);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)dynamic_energy, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = cos(x[i]) * x[(i + 1) % N] + sin(x[(i + N - 1) % N]);
  fz_check_arr("d dynamic_energy", dx, want, N, 1e-12);
  for (int i = 0; i < N; i += 97) {
    char name[32];
    snprintf(name, sizeof name, "fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval_dyn, 0, &x[i]), 1e-6);
  }

  double v[N];
  fz_fill(v, N, -1, 1);
  double jvp = __enzyme_fwddiff((void *)dynamic_energy, enzyme_dup, x, v, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("forward mode <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
