// OPT: O0 O1 O2 O3
// Issue 14: reverse over reverse of a loop calling a function, alone in its program (so
// that no other derivative's tape adds facts to type analysis of the shared stack
// runtime). The inner derivative pushes the callee's argument each iteration on a stack
// that outgrows its inline buffer (up to 160 iterations); differentiating it again
// stopped, at every level, on a cannot-deduce-type error for the `memcpy` by which
// `__fz_grow_plain` moves the records to the heap ("nothing is known about %nd1").
// Oracles: a hand-written second-order forward sweep (exact), finite differences of its
// first derivative, and forward over reverse of the same first derivative.
#include "fz_test.h"
#include "fz_modes.h"

#ifndef FZ_ORACLES_ONLY
extern double __enzyme_autodiff_outer(void *, ...);
#else
#define __enzyme_autodiff_outer(...) 0.0
#endif

__attribute__((noinline)) static double g(double t, double x) { return t * cos(t) * 0.5 + x; }
double f(double x, int n) {
  double t = x;
  for (int i = 0; i < n; i++) t = g(t, x);
  return t;
}
double df(double x, int n) { return __enzyme_autodiff((void *)f, x, enzyme_const, n); }

/* f, f', f'' by hand: t' and t'' carried through t <- t cos(t) / 2 + x */
static void jet(double x, int n, double *d1, double *d2) {
  double t = x, dt = 1, ddt = 0;
  for (int i = 0; i < n; i++) {
    double c = cos(t), s = sin(t);
    double u = 0.5 * (c - t * s);          /* d g / d t */
    double uu = 0.5 * (-2 * s - t * c);    /* d2 g / d t2 */
    double nddt = uu * dt * dt + u * ddt;  /* x enters linearly */
    dt = u * dt + 1;
    ddt = nddt;
    t = t * c * 0.5 + x;
  }
  *d1 = dt;
  *d2 = ddt;
}
static int NC;
static double first(double x) {
  double d1, d2;
  jet(x, NC, &d1, &d2);
  return d1;
}

int main(void) {
  fz_seed(269);
  const int ns[] = {0, 1, 5, 31, 80, 160};
  for (int k = 0; k < 6; k++) {
    double x = fz_uniform(-1.5, 1.5), d1, d2;
    int n = ns[k];
    NC = n;
    jet(x, n, &d1, &d2);
    fz_check("f' (reverse)", df(x, n), d1, 1e-10 * (fabs(d1) > 1 ? fabs(d1) : 1));
    fz_mcheck_d2("f''", __enzyme_autodiff_outer((void *)df, x, enzyme_const, n),
                 __enzyme_fwddiff((void *)df, x, 1.0, enzyme_const, n), d2, fz_fd1(first, x));
  }
  return fz_finish();
}
