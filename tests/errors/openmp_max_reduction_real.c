// CFLAGS: -fopenmp
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: this OpenMP reduction is not a sum of reals; only reduction(+:x)
// EXPECT-ERROR: in function `peak.omp_outlined`
// A `reduction(max:m)` of an active double (hpc13's sweep; also `*`, and flang's
// `!$omp parallel do reduction(max:big)`): the reverse sweep would need the thread and
// the iteration that won, which the combined value does not say. Rejected with the
// reduction named (not a silently wrong gradient); the usual rewrite is a parallel
// search for the index of the maximum (an integer) followed by a serial read of x[k].
#include <math.h>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double peak(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i] * x[i]);
  return m;
}

int main(void) {
  double x[8], dx[8];
  for (int i = 0; i < 8; i++) {
    x[i] = 0.1 * i - 0.3;
    dx[i] = 0;
  }
  __enzyme_autodiff((void *)peak, enzyme_dup, x, dx, enzyme_const, 8);
  return dx[0] != 0;
}
