// CFLAGS: -fopenmp
// EXPECT-ERROR: missing-derivative
// EXPECT-ERROR: no derivative for `__atomic_compare_exchange`
// EXPECT-ERROR: an OpenMP `atomic` update or `reduction` of a `long double`
// EXPECT-ERROR: combine them in a `critical` section
// An OpenMP `atomic` update of a `long double` accumulator: x86-64 has no atomic 80-bit
// add, so clang emits a compare-and-swap loop through libatomic's generic
// `__atomic_load`/`__atomic_compare_exchange` (16 bytes), which has no IR. It was a bare
// "no IR in this module" error; now it names the construct and the remedies (double
// accumulation, or per-thread partials combined in `critical`: tests/openmp/98).
#include <omp.h>
extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

double total(const double *x, int n) {
  long double acc = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long double t = (long double)x[i] * x[i];
#pragma omp atomic
    acc += t;
  }
  return (double)acc;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_const, 4);
  return (int)dx[0];
}
