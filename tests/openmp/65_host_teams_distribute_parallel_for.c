// OMP_THREADS: 1 2
// OPT: O0 O2
// Host `teams` regions (hpc37; refused until hpc36 as `__kmpc_fork_teams`): a `teams
// distribute parallel for reduction(+)` on the default league (one team, whose threads
// share the iterations), a `teams distribute` with `num_teams(2) thread_limit(1)` and a
// `dist_schedule(static, 3)` writing an array, and a `teams num_teams(2)` region whose
// teams each take a half of the array by `omp_get_team_num()` and start their own
// `parallel for` with a reduction, added across the teams by an `atomic` update. Both
// leagues of two teams share memory across teams (atomic adjoints). Reverse mode against central finite differences of the
// serial program, forward mode by the dot-product identity, the value against the serial
// program.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 20

double loss(const double *x, int n) {
  double e = 0, y[N], tot = 0;
#pragma omp teams distribute parallel for reduction(+ : e)
  for (int i = 0; i < n; i++) e += x[i] * x[i] * (1.0 + 0.1 * i);
#pragma omp teams distribute num_teams(2) thread_limit(1) dist_schedule(static, 3)
  for (int i = 0; i < n; i++) y[i] = sin(x[i]) * x[(i + 3) % n];
#pragma omp teams num_teams(2)
  {
    int t = omp_get_team_num(), nt = omp_get_num_teams();
    int lo = t * n / nt, hi = (t + 1) * n / nt;
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = lo; i < hi; i++) s += y[i] * exp(0.1 * x[i]);
#pragma omp atomic
    tot += s;
  }
  return e + tot * tot + 2 * tot;
}

static double serial(const double *x, int n) {
  double e = 0, y[N], tot = 0;
  for (int i = 0; i < n; i++) e += x[i] * x[i] * (1.0 + 0.1 * i);
  for (int i = 0; i < n; i++) y[i] = sin(x[i]) * x[(i + 3) % n];
  for (int i = 0; i < n; i++) tot += y[i] * exp(0.1 * x[i]);
  return e + tot * tot + 2 * tot;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(65);
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
