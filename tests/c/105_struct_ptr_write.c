// OPT: O0 O1 O2 O3
// Memory read through an argument pointer and later written through a
// pointer loaded from a struct (which aliases the argument), and inside a noinline callee.
#include "fz_test.h"

struct S { double *p; double k; };

double f_struct(double *x, struct S *s) {
  double a = x[0] * x[1];
  double r = sin(a) * x[0];
  s->p[0] = 2.0;   /* s->p == x */
  s->p[1] = 3.0;
  return r + x[0] * x[1];
}

double *g_ptr;
double f_global(double *x) {
  double r = x[0] * x[0] * x[1];
  g_ptr[0] = 5.0;  /* g_ptr == x (no shadow known for g_ptr) */
  return r;
}

__attribute__((noinline)) void clobber(double *p) { p[0] = -1.0; p[1] = 4.0; }
double f_callee(double *x, double *alias) {
  double r = exp(x[0]) * x[1] * x[1];
  clobber(alias);
  return r + x[0];
}

int main(void) {
  double x[2] = {0.7, -0.4}, dx[2] = {0, 0};
  double x0 = x[0], x1 = x[1];
  struct S s = {x, 0}, ds = {dx, 0};
  __enzyme_autodiff((void *)f_struct, enzyme_dup, x, dx, enzyme_dup, &s, &ds);
  /* r = sin(x0 x1) x0 ; then x = (2,3) ; + 6 */
  fz_check("struct dx0", dx[0], cos(x0 * x1) * x1 * x0 + sin(x0 * x1), 1e-12);
  fz_check("struct dx1", dx[1], cos(x0 * x1) * x0 * x0, 1e-12);

  x[0] = x0; x[1] = x1; dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)f_callee, enzyme_dup, x, dx, enzyme_dup, x, dx);
  /* r = exp(x0) x1^2, then x := (-1,4), + x0 (now const -1) */
  fz_check("callee dx0", dx[0], exp(x0) * x1 * x1, 1e-12);
  fz_check("callee dx1", dx[1], exp(x0) * 2 * x1, 1e-12);
  return fz_finish();
}
