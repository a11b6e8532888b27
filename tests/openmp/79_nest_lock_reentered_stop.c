// EXPECT-RUNTIME-ERROR: the reverse of nested OpenMP critical sections
// EXPECT-RUNTIME-ERROR: merge the nested sections into one
// OMP_THREADS: 1 2
// OPT: O0 O2
// A nestable lock taken again by the thread that holds it (the helper `add_locked`
// called inside the caller's locked section), the use nestable locks exist for. The
// sections are reversed like critical sections, one turn at a time; the inner section's
// turn would wait for the outer one, which the same thread holds, so the derivative stops
// with a message naming nested sections and the remedy (merge them) instead of hanging or
// reversing the updates out of order (tests/openmp/78 covers a nest lock taken once).
#include <omp.h>
#include "fz_test.h"

#define N 8

static omp_nest_lock_t lk;

static void add_locked(double *p, double v) {
  omp_set_nest_lock(&lk);
  *p += v;
  omp_unset_nest_lock(&lk);
}

double loss(const double *x, int n) {
  double acc = 0;
  omp_init_nest_lock(&lk);
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    omp_set_nest_lock(&lk);
    add_locked(&acc, x[k] * x[k]);
    acc *= 1.01;
    omp_unset_nest_lock(&lk);
  }
  omp_destroy_nest_lock(&lk);
  return acc;
}

int main(void) {
  double x[N], g[N] = {0};
  fz_seed(79);
  fz_fill(x, N, -1, 1);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, N);
  fz_check("unreachable: the derivative stops first", g[0], 0, 0);
  return fz_finish();
}
