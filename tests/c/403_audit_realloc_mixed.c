// OPT: O0 O2
// CFLAGS: -ffast-math
// realloc of memory holding both floats and doubles (issue 17's audit): the adjoints of
// the kept bytes were moved back as if they were all doubles, so a float's adjoint with
// zero padding next to it became a denormal double, flushed to zero under -ffast-math
// (d/dx was 2 4 instead of 5 7). Oracle: analytic.
#include "fz_test.h"

struct fd { float a; double b; };

double f(const double *x, int n) {
  struct fd *p = (struct fd *)malloc(2 * sizeof *p);
  for (int i = 0; i < 2; i++) { p[i].a = (float)x[i]; p[i].b = x[i] * x[i]; }
  p = (struct fd *)realloc(p, n * sizeof *p);
  for (int i = 2; i < n; i++) { p[i].a = (float)x[i]; p[i].b = x[i]; }
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i].a * 3.0 + p[i].b;
  free(p);
  return s;
}

#define N 6
int main(void) {
  fz_seed(403);
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = i < 2 ? 3 + 2 * x[i] : 4;
  fz_check_arr("grad", dx, want, N, 1e-12);
  return fz_finish();
}
