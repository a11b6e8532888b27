// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Loop scheduling and SIMD clauses a performance-minded user adds to a working loop,
// on active data: `schedule(nonmonotonic: dynamic, 3)` and `schedule(monotonic:
// static, 2)`, a `declare simd uniform(a) linear(i:1)` helper called from a `parallel for
// simd simdlen(4) reduction(+:s)` loop, an `if(n > 8) num_threads(k)` region whose team
// size comes from omp_get_max_threads(), and the runtime queries such codes sprinkle in
// (omp_in_parallel, omp_get_level, omp_get_team_size, omp_get_num_procs) deciding a
// per-thread weight. Reverse mode against central finite differences of the serial
// program; forward mode by the dot-product identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 29

#pragma omp declare simd uniform(a) linear(i : 1)
static double term(const double *a, int i) { return a[i] * a[i] * 0.5 + sin(a[i]); }

double loss(const double *x, int n) {
  double y[N], z[N], s = 0, q = 0;
#pragma omp parallel for schedule(nonmonotonic : dynamic, 3)
  for (int i = 0; i < n; i++) y[i] = x[i] * (1.0 + 0.05 * i) + 0.3 * x[(i + 2) % n] * x[i];
#pragma omp parallel for simd simdlen(4) reduction(+ : s)
  for (int i = 0; i < n; i++) s += term(y, i);
  int k = omp_get_max_threads();
#pragma omp parallel if (n > 8) num_threads(k) reduction(+ : q)
  {
    int team = omp_get_team_size(omp_get_level());
    double wgt = (omp_in_parallel() || team == 1) && omp_get_num_procs() > 0 ? 1.0 : 2.0;
#pragma omp for schedule(monotonic : static, 2)
    for (int i = 0; i < n; i++) {
      z[i] = wgt * y[i] * s;
      q += z[i] * z[i] * 0.01;
    }
  }
  return s + q;
}

static double serial(const double *x, int n) {
  double y[N], s = 0, q = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * (1.0 + 0.05 * i) + 0.3 * x[(i + 2) % n] * x[i];
  for (int i = 0; i < n; i++) s += y[i] * y[i] * 0.5 + sin(y[i]);
  for (int i = 0; i < n; i++) {
    double z = y[i] * s;
    q += z * z * 0.01;
  }
  return s + q;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(87);
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
