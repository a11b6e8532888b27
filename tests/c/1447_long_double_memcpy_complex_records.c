// OPT: O0 O2
// long double memory moved as bytes: memcpy and an overlapping memmove of `long double`
// arrays (16-byte elements holding 10 bytes of x87 data), a memcpy of an array of
// records `{long double e; double a; int k; double b;}`, and `_Complex long double`
// products and quotients (__mulxc3, __divxc3) and cabsl of the copies; a record field is
// written back. The central-difference helper `evl(long double *)` is called with
// pointers into the long double array and into the records: at -O0 type analysis merged
// the two objects through the helper's parameter and refused the copies ("cannot deduce
// the type of the memory copied here", enz36; see 1451). Oracles: central differences in
// long double, forward = reverse.
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>
typedef struct { long double e; double a; int k; double b; } rec;
double f(const long double *x, rec *r, int n) {
  long double buf[8], tmp[8];
  memcpy(buf, x, n * sizeof *x);
  memmove(buf + 1, buf, (n - 1) * sizeof *buf);
  memcpy(tmp, buf, n * sizeof *buf);
  rec copy[4];
  memcpy(copy, r, sizeof copy);
  long double _Complex z = 0;
  for (int i = 0; i < n; i++) {
    long double _Complex u = tmp[i] + I * copy[i % 4].e;
    long double _Complex v = copy[i % 4].a - I * (tmp[(i + 1) % n] * copy[i % 4].b);
    z += u * v / (v + 1.5L);
  }
  r[0].a = (double)cabsl(z);
  return (double)(creall(z) * cimagl(z)) + r[0].a;
}
static long double X[6]; static rec R[4];
static double eval(void *u) { (void)u; rec r2[4]; memcpy(r2, R, sizeof R); return f(X, r2, 6); }
static double evl(long double *p) { long double k = *p; long double h = 1e-7L * (fabsl(k) > 1 ? fabsl(k) : 1);
  *p = k + h; double fp = eval(0); *p = k - h; double fm = eval(0); *p = k; return (fp - fm) / (double)(2 * h); }
int main(void) {
  for (int i = 0; i < 6; i++) X[i] = 0.3L + 0.1L * i;
  for (int i = 0; i < 4; i++) { R[i].e = 0.2L * i - 0.3L; R[i].a = 0.5 + 0.1 * i; R[i].k = i; R[i].b = -0.4 + 0.3 * i; }
  long double gx[6] = {0}; rec r[4], dr[4];
  memcpy(r, R, sizeof R); memset(dr, 0, sizeof dr);
  __enzyme_autodiff((void *)f, enzyme_dup, X, gx, enzyme_dup, r, dr, enzyme_const, 6);
  for (int i = 0; i < 6; i++) fz_check("d/dx", (double)gx[i], evl(&X[i]), 1e-6);
  for (int i = 0; i < 4; i++) {
    fz_check("d/de", (double)dr[i].e, evl(&R[i].e), 1e-6);
    fz_check("d/da", dr[i].a, fz_fd_ptr(eval, 0, &R[i].a), 1e-6);
    fz_check("d/db", dr[i].b, fz_fd_ptr(eval, 0, &R[i].b), 1e-6);
  }
  for (int j = 0; j < 6; j++) {
    long double tx[6] = {0}; tx[j] = 1; rec r2[4], t2[4]; memcpy(r2, R, sizeof R); memset(t2, 0, sizeof t2);
    fz_check("fwd = rev", __enzyme_fwddiff((void *)f, enzyme_dup, X, tx, enzyme_dup, r2, t2, enzyme_const, 6), (double)gx[j], 1e-10);
  }
  return fz_finish();
}
