// OMP_THREADS: 1 2 3
// OPT: O0 O2
// Nestable locks as libraries use them (a module-level `omp_nest_lock_t` guarding shared
// state, taken once per update by whichever thread calls the helper) and a lock made with
// `omp_init_lock_with_hint`: a product of per-element factors updated under the nest
// lock inside a called function, a running maximum and a sum of squares under the hinted
// lock. Before hpc40 `omp_init_nest_lock`, `omp_set_nest_lock` and the hinted
// initialisation were missing-derivative errors; the sections are now reversed in the
// exact reverse order the threads went through them, like `omp_set_lock` sections.
// Reverse mode against central finite differences of the serial program (the updates
// commute, so the value does not depend on the threads' order), forward mode by the
// dot-product identity, a second gradient equal to the first.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 18

static omp_nest_lock_t state_lock;
static omp_lock_t sum_lock;

static void scale_state(double *p, double f) {
  omp_set_nest_lock(&state_lock);
  *p = *p * f;
  omp_unset_nest_lock(&state_lock);
}

double loss(const double *x, int n) {
  double prod = 1, big = -1e300, sq = 0;
  omp_init_nest_lock(&state_lock);
  omp_init_lock_with_hint(&sum_lock, omp_sync_hint_contended);
#pragma omp parallel for schedule(dynamic, 2)
  for (int k = 0; k < n; k++) {
    double f = 1 + 0.1 * x[k] * x[k];
    scale_state(&prod, f);
    double v = sin(x[k]) * (1 + 0.05 * k);
    omp_set_lock(&sum_lock);
    if (v > big) big = v;
    sq += v * v;
    omp_unset_lock(&sum_lock);
  }
  omp_destroy_lock(&sum_lock);
  omp_destroy_nest_lock(&state_lock);
  return prod + big + sq;
}

static double serial(const double *x, int n) {
  double prod = 1, big = -1e300, sq = 0;
  for (int k = 0; k < n; k++) {
    prod *= 1 + 0.1 * x[k] * x[k];
    double v = sin(x[k]) * (1 + 0.05 * k);
    if (v > big) big = v;
    sq += v * v;
  }
  return prod + big + sq;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(78);
  fz_fill(xs, N, -1.2, 1.2);
  double g[N], g2[N], v[N];
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
  fz_zero(g2, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g2, enzyme_const, N);
  fz_check_arr("second gradient", g2, g, N, 1e-12);
  return fz_finish();
}
