// CFLAGS: -fopenmp
// EXPECT-ERROR: cmpxchg
// EXPECT-ERROR: atomic float additions are
// EXPECT-ERROR-LINE: atomic_capture_site
// `#pragma omp atomic capture` of `{ old = p; p *= f; }` on a double: clang's
// compare-and-exchange loop whose old value is used after the loop. An atomic product
// alone is differentiated (a critical section, tests/openmp/28); with the capture the
// loop stays and is refused naming `cmpxchg` and the line. Never a silently wrong
// gradient.
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
#include <math.h>

double prod_capture(const double *x, double *seen, int n) {
  double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double f = 1.0 + 0.1 * sin(x[i]), old;
#pragma omp atomic capture
    { old = p; p *= f; } // atomic_capture_site
    seen[i] = old;
  }
  return p;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0}, seen[4], dseen[4] = {0};
  __enzyme_autodiff((void *)prod_capture, enzyme_dup, x, dx, enzyme_dup, seen, dseen, 4);
  return (int)dx[0];
}
