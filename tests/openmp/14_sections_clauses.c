// OMP_THREADS: 1 2
// OPT: O0 O2
// `#pragma omp parallel sections` (two independent partial sums combined after the
// region), a `parallel for` with `num_threads(2)` and an `if(n > 8)` clause (taken and
// not taken), and omp_get_wtime() read inside the differentiated code (inactive). With
// both clauses the `__kmpc_push_num_threads` sits in the block before the branch to the
// fork: the forward sweep used to size the tapes for OMP_NUM_THREADS=1 and abort ("a
// parallel region ran with more threads than it was prepared for"). Checked against the
// analytic gradient and central finite differences. (`taskloop` and tasks are rejected
// with a clear missing-derivative error naming `__kmpc_omp_task_alloc`.)
#include <omp.h>
#include "fz_test.h"

#define N 24

double halves(const double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < n / 2; i++) a += x[i] * x[i];
#pragma omp section
    for (int i = n / 2; i < n; i++) b += sin(x[i]);
  }
  return a * b;
}

double clauses(const double *x, int n) {
  double t0 = omp_get_wtime(), s = 0;
#pragma omp parallel for num_threads(2) if (n > 8) reduction(+ : s)
  for (int i = 0; i < n; i++) s += exp(0.5 * x[i]) * (i % 3 + 1);
  /* libomp's omp_get_wtime reads the wall clock (gettimeofday), which a time daemon may
   * step back: only a step of more than a day is taken as a broken clock. */
  return omp_get_wtime() > t0 - 86400.0 ? s : 0;
}

static double x[N];
static double eval(void *ctx) {
  (void)ctx;
  return halves(x, N) + clauses(x, N);
}

int main(void) {
  fz_seed(1414);
  fz_fill(x, N, -1, 1);
  double dx[N], want[N], a = 0, b = 0;
  for (int i = 0; i < N / 2; i++) a += x[i] * x[i];
  for (int i = N / 2; i < N; i++) b += sin(x[i]);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)halves, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = i < N / 2 ? 2 * x[i] * b : a * cos(x[i]);
  fz_check_arr("d halves", dx, want, N, 1e-12);
  __enzyme_autodiff((void *)clauses, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] += 0.5 * exp(0.5 * x[i]) * (i % 3 + 1);
  fz_check_arr("d halves + d clauses", dx, want, N, 1e-12);
  /* n = 6: the `if` clause is false, the region runs serialized. */
  double ds[N], ws[N];
  fz_zero(ds, N);
  __enzyme_autodiff((void *)clauses, enzyme_dup, x, ds, enzyme_const, 6);
  for (int i = 0; i < N; i++) ws[i] = i < 6 ? 0.5 * exp(0.5 * x[i]) * (i % 3 + 1) : 0;
  fz_check_arr("d clauses serialized", ds, ws, N, 1e-12);
  for (int i = 0; i < N; i += 5) {
    char name[32];
    snprintf(name, sizeof name, "fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  return fz_finish();
}
