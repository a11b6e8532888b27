// OPT: O0 O2 O3
// long double (x86_fp80, the x87 unit) differentiated (issue 17's audit: at the hook
// boundary it came out as a silent zero). The issue's own programs (a typed long double
// hook; a double hook with a long double passed through `...`), long double arrays with
// long double shadows, libm's long double functions (sinl, expl, sqrtl, powl, atanl,
// tanhl, logl, cbrtl, hypotl), a loop whose values go on the tape, memcpy of a long double
// buffer, a struct mixing long double and double, mixed long double/double arithmetic,
// forward mode. Oracles: analytic formulas in long double.
#include "fz_test.h"

extern long double __enzyme_autodiff_ld(void *, long double);
extern double __enzyme_fwddiff(void *, ...);
extern long double __enzyme_fwddiff_ld(void *, ...);

long double sq(long double x) { return x * x; }

/* sum_i w_i(x_i): a loop (tape values in long double) over libm's long double functions. */
long double series(const long double *x, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) {
    long double v = x[i];
    s += sinl(v) * expl(0.5L * v) + sqrtl(v * v + 1) + powl(fabsl(v) + 1, 1.5L) + atanl(v) * tanhl(v) +
         logl(v * v + 2) + cbrtl(v + 3) + hypotl(v, 2);
  }
  return s;
}
static long double dseries(long double v) {
  long double a = fabsl(v) + 1, sgn = v < 0 ? -1 : 1;
  return cosl(v) * expl(0.5L * v) + 0.5L * sinl(v) * expl(0.5L * v) + v / sqrtl(v * v + 1) +
         1.5L * sqrtl(a) * sgn + tanhl(v) / (1 + v * v) + atanl(v) * (1 - tanhl(v) * tanhl(v)) +
         2 * v / (v * v + 2) + 1 / (3 * cbrtl((v + 3) * (v + 3))) + v / hypotl(v, 2);
}

/* A long double buffer copied with memcpy, then a product with a double. */
double copied(const long double *x, double w, int n) {
  long double buf[8];
  memcpy(buf, x, n * sizeof(long double));
  long double p = 1;
  for (int i = 0; i < n; i++) p *= buf[i];
  return (double)(p * w);
}

/* A double function computing in long double (it was refused with unsupported-instruction). */
double widen(double x) {
  long double a = x;
  return (double)(a * a * a);
}

struct mix { long double a; double b; int k; };
double mixed(const struct mix *m) { return (double)(m->a * m->a) * m->b * m->k; }

#define N 5
int main(void) {
  fz_seed(404);
  volatile long double xv = 3.0L;
  /* The programs. */
  fz_check("typed long double hook", (double)__enzyme_autodiff_ld((void *)sq, xv), 6.0, 1e-15);
  fz_check("long double through ...", __enzyme_autodiff((void *)sq, (long double)xv), 6.0, 1e-15);

  long double x[N], dx[N];
  for (int i = 0; i < N; i++) { x[i] = fz_uniform(-1, 1); dx[i] = 0; }
  __enzyme_autodiff((void *)series, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("d series", (double)dx[i], (double)dseries(x[i]), 1e-14);

  double w = 1.25, dw;
  for (int i = 0; i < N; i++) dx[i] = 0;
  dw = __enzyme_autodiff((void *)copied, enzyme_dup, x, dx, w, enzyme_const, N);
  long double prod = 1;
  for (int i = 0; i < N; i++) prod *= x[i];
  fz_check("d copied / dw", dw, (double)prod, 1e-14);
  for (int i = 0; i < N; i++) fz_check("d copied / dx", (double)dx[i], (double)(prod / x[i] * w), 1e-13);

  volatile double xd = 1.25;
  fz_check("d widen", __enzyme_autodiff((void *)widen, (double)xd), 3 * 1.25 * 1.25, 1e-15);

  struct mix m = {0.75L, -1.5, 3}, dm = {0, 0, 0};
  __enzyme_autodiff((void *)mixed, enzyme_dup, &m, &dm);
  fz_check("d mixed.a", (double)dm.a, (double)(2 * m.a * m.b * m.k), 1e-15);
  fz_check("d mixed.b", dm.b, (double)(m.a * m.a * m.k), 1e-15);

  /* Forward mode: the tangent along t against the analytic directional derivative. */
  long double t[N], want = 0;
  for (int i = 0; i < N; i++) { t[i] = fz_uniform(-1, 1); want += dseries(x[i]) * t[i]; }
  fz_check("fwd series", (double)__enzyme_fwddiff_ld((void *)series, enzyme_dup, x, t, enzyme_const, N), (double)want, 1e-14);
  fz_check("fwd sq", __enzyme_fwddiff((void *)sq, xv, 1.0L), 6.0, 1e-15);
  return fz_finish();
}
