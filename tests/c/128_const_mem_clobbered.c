// OPT: O0 O1 O2 O3
// Inactive (enzyme_const) memory read by a nonlinear product, then modified
// later in the same differentiated call by: an inactive noinline callee,
// memset, memcpy, qsort (libc with a callback), a pointer returned by a
// function, and a pointer round-tripped through an integer. The reverse pass
// needs the value of c before the modification.
#include "fz_test.h"

__attribute__((noinline)) void bump(double *c, int n) { for (int i = 0; i < n; i++) c[i] += 10.0; }
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y); /* descending */
}
static double g_other[4] = {9, 8, 7, 6};
__attribute__((noinline)) double *id(double *p) { return p; }

double f_callee(double *x, double *c) { double r = x[0] * x[0] * c[0]; bump(c, 4); return r; }
double f_memset(double *x, double *c) { double r = x[0] * x[0] * c[1]; memset(c, 0, 4 * sizeof(double)); return r; }
double f_memcpy(double *x, double *c) { double r = x[0] * x[0] * c[2]; memcpy(c, g_other, 4 * sizeof(double)); return r; }
double f_qsort(double *x, double *c) { double r = x[0] * x[0] * c[3]; qsort(c, 4, sizeof(double), cmpd); return r; }
double f_retptr(double *x, double *c) { double r = x[0] * x[0] * c[0]; id(c)[0] = -3.0; return r; }
double f_intptr(double *x, double *c) {
  double r = x[0] * x[0] * c[1];
  uintptr_t u = (uintptr_t)c + sizeof(double);
  *(double *)u = 42.0;
  return r;
}

int main(void) {
  const double c0[4] = {0.5, 1.5, 2.5, 3.5};
  double x0 = 0.7;
  double c[4], x, dx;
#define RUN(fn, k)                                                                  \
  do {                                                                              \
    memcpy(c, c0, sizeof c); x = x0; dx = 0;                                       \
    __enzyme_autodiff((void *)fn, enzyme_dup, &x, &dx, enzyme_const, c);            \
    fz_check(#fn, dx, 2 * x0 * c0[k], 1e-12);                                       \
  } while (0)
  RUN(f_callee, 0);
  RUN(f_memset, 1);
  RUN(f_memcpy, 2);
  RUN(f_qsort, 3);
  RUN(f_retptr, 0);
  RUN(f_intptr, 1);
  return fz_finish();
}
