// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: the pointer read from global `a` has no shadow
// probe40: a global pointer allocated in `init` (whose shadow is then a zeroed allocation
// of the same size, tests/c/1484) and later replaced by a helper that receives the
// global's address (`regrow(&a, 16)`: a store the pass does not see as a store into
// `a`). The first gradient is right; before the second, the shadow is found stale (the
// global no longer holds the recorded pointer) and cleared, so the derivative stops with
// the message instead of reading and writing 16 doubles through a shadow of 8.
// Oracle for the first gradient: analytic.
#include "fz_test.h"
#include <stdlib.h>

double *a, *other;
int n_a;

__attribute__((noinline)) void init(void) {
  n_a = 8;
  a = (double *)malloc(8 * sizeof(double));
  for (int i = 0; i < 8; i++) a[i] = i + 1;
}

__attribute__((noinline)) void regrow(double **p, int n) {
  double *q = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) q[i] = i < n_a ? (*p)[i] : 1.0;
  free(*p);
  *p = q;
  n_a = n;
}

double f(double x) {
  double s = 0;
  for (int i = 0; i < n_a; i++) {
    s += a[i] * x * x;
    a[i] = a[i] * 1.0;
  }
  return s;
}

int main(void) {
  init();
  /* A second global through the same helper: no -O level can fold `p` into `&a`. */
  other = (double *)malloc(sizeof(double));
  other[0] = 0;
  int n_keep = n_a;
  n_a = 1;
  regrow(&other, 4);
  n_a = n_keep;
  double x = 0.5;
  fz_check("first gradient", __enzyme_autodiff((void *)f, x), 2 * 36.0 * x, 1e-12);
  regrow(&a, 16);
  double d = __enzyme_autodiff((void *)f, x);
  printf("second gradient %g (not reached)\n", d);
  return fz_finish();
}
