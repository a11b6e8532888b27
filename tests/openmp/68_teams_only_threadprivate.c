// OMP_THREADS: 1 2
// OPT: O0 O2
// A module whose only OpenMP construct is host `teams` (no `parallel` anywhere) with a
// `threadprivate` accumulator under clang's default lowering (thread-local storage):
// each team's initial thread adds its part of the array into its copy, which a league
// outside the differentiated function zeroed (so the copy's value on entry is an
// input without derivative), then adds the copy into a shared total atomically; a
// second league scales the copy each team's thread left by a sum over its part. Reverse
// mode against central finite differences of the serial program, twice (the second
// gradient must equal the first), forward mode by the dot-product identity, the value
// against the serial program. Until hpc38 the module took the non-parallel path
// (`__kmpc_fork_teams` did not count as forking): the other team's thread kept the
// adjoint its copy was left with by the previous derivative call.
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24

static double acc;
#pragma omp threadprivate(acc)

double loss(const double *x, int n) {
  double tot = 0, tot2 = 0;
#pragma omp teams num_teams(2) thread_limit(1)
  {
    int t = omp_get_team_num(), nt = omp_get_num_teams();
    int lo = t * n / nt, hi = (t + 1) * n / nt;
    for (int i = lo; i < hi; i++) acc += x[i] * x[i] * sin(x[(i + 5) % n]);
#pragma omp atomic
    tot += acc;
  }
#pragma omp teams num_teams(2) thread_limit(1)
  {
    int t = omp_get_team_num(), nt = omp_get_num_teams();
    int lo = t * n / nt, hi = (t + 1) * n / nt;
    // The copy each team's thread left in the first league, scaled by this team's part.
    double s = 0;
    for (int i = lo; i < hi; i++) s += exp(0.2 * x[i]);
    acc = acc * s;
#pragma omp atomic
    tot2 += acc;
  }
  return tot * tot + 3 * tot2;
}

static double serial(const double *x, int n, int teams) {
  double tot = 0, tot2 = 0;
  for (int t = 0; t < teams; t++) {
    int lo = t * n / teams, hi = (t + 1) * n / teams;
    double a = 0, s = 0;
    for (int i = lo; i < hi; i++) a += x[i] * x[i] * sin(x[(i + 5) % n]);
    tot += a;
    for (int i = lo; i < hi; i++) s += exp(0.2 * x[i]);
    tot2 += a * s;
  }
  return tot * tot + 3 * tot2;
}

/// Zeroes every team thread's copy, outside the differentiated code.
static void reset(void) {
#pragma omp teams num_teams(2) thread_limit(1)
  acc = 0;
}

static double xs[N];
static int league;
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N, league);
}

static int league_size(void) {
  int nt = 0;
#pragma omp teams num_teams(2) thread_limit(1)
  {
    if (omp_get_team_num() == 0) nt = omp_get_num_teams();
  }
  return nt;
}

int main(void) {
  fz_seed(68);
  fz_fill(xs, N, -0.9, 0.9);
  league = league_size();
  double g[N], v[N];
  fz_zero(g, N);
  reset();
  fz_check("value vs serial", loss(xs, N), serial(xs, N, league), 1e-12);
  fz_check("league of 2 teams", league, 2, 0);
  reset();
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  // A second gradient: the shadow copies start from zero again.
  double g2[N];
  fz_zero(g2, N);
  reset();
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g2, enzyme_const, N);
  for (int k = 0; k < N; k++) fz_check("second gradient = first", g2[k], g[k], 1e-12);
  fz_fill(v, N, -1, 1);
  reset();
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  return fz_finish();
}
