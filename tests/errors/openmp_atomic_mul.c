// CFLAGS: -fopenmp
// EXPECT-ERROR: cmpxchg
// EXPECT-ERROR: atomic float additions are
// EXPECT-ERROR-LINE: atomic_mul_site
// `#pragma omp atomic` of `p *= f` on a double: clang emits a compare-and-exchange loop
// on the double's bits, which is refused naming `cmpxchg` and the line (an order-dependent
// product; a `reduction(*:p)` or a critical section is differentiated). Never a silently
// wrong gradient.
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
#include <math.h>

double prod_atomic(const double *x, int n) {
  double p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double f = 1.0 + 0.1 * sin(x[i]);
#pragma omp atomic
    p *= f; // atomic_mul_site
  }
  return p;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)prod_atomic, enzyme_dup, x, dx, 4);
  return (int)dx[0];
}
