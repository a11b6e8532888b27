// OPT: O0 O1 O2 O3
// A union whose double member is read before its integer member overwrites it, a
// struct of two doubles and an int returned by value (sret) from a helper, and an
// in-place pairwise swap-and-scale of a duplicated array. Oracles: analytic formulas
// and finite differences.
#include "fz_test.h"
typedef union { double d; long l; } U;
double f_union(double x) {
  U u; u.d = x * x;
  double y = u.d * 3.0;
  u.l = 7;            /* overwrite with int */
  return y + (double)u.l * x;
}
typedef struct { double v[2]; int n; } V2;
V2 mk(double a, double b) { V2 r = {{a * b, a + b}, 2}; return r; }
double f_sret(double a, double b) { V2 r = mk(a, b); return r.v[0] * r.v[1] + r.n; }
double f_swap(double *x, int n) {
  for (int i = 0; i + 1 < n; i += 2) { double t = x[i]; x[i] = x[i + 1] * t; x[i + 1] = t; }
  double s = 0; for (int i = 0; i < n; i++) s += x[i] * (i + 1);
  return s;
}
static double X[4];
static double ev(void *c) { (void)c; double y[4]; memcpy(y, X, sizeof y); return f_swap(y, 4); }
int main(void) {
  fz_check("union", __enzyme_autodiff((void *)f_union, 1.3), 6 * 1.3 + 7, 1e-12);
  fz_grad2 g = __enzyme_autodiff2((void *)f_sret, 0.7, -1.2);
  fz_check("sret da", g.d0, 0.7*0 + (-1.2)*(0.7-1.2) + 0.7*(-1.2), 1e-12);
  fz_check("sret db", g.d1, 0.7*(0.7-1.2) + 0.7*(-1.2), 1e-12);
  double x[4] = {0.5, 1.5, -0.3, 2.0}, dx[4] = {0};
  for (int i = 0; i < 4; i++) X[i] = x[i];
  __enzyme_autodiff((void *)f_swap, enzyme_dup, x, dx, enzyme_const, 4);
  double fd[4]; fz_fd_grad(ev, NULL, X, 4, fd);
  fz_check_arr("swap", dx, fd, 4, 1e-6);
  return fz_finish();
}
