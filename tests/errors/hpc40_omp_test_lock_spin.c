// CFLAGS: -fopenmp
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `omp_test_lock` (OpenMP runtime)
// EXPECT-ERROR: take it with omp_set_lock
// EXPECT-ERROR-LINE: while (!omp_test_lock
// A lock taken by spinning on `omp_test_lock` (the pattern of codes that do other work
// while the lock is busy). Whether a thread got the lock is a run-time branch the
// reverse sweep does not take turns on, so the routine is refused by name, with its line
// and the constructs that are differentiated (`omp_set_lock`/`omp_unset_lock` sections,
// nestable locks and critical sections are: tests/openmp/24, 78).
#include <omp.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

static omp_lock_t lk;

double loss(const double *x, int n) {
  double acc = 0;
  omp_init_lock(&lk);
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    while (!omp_test_lock(&lk)) {
    }
    acc += x[k] * x[k];
    omp_unset_lock(&lk);
  }
  omp_destroy_lock(&lk);
  return acc;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, 4);
  return g[0] > 0 ? 0 : 1;
}
