// OPT: O0 O2
// A pointer chosen at run time between enzyme_const memory (y) and enzyme_dup memory (x),
// then passed to a function that is not inlined. This was refused as mismatched
// activity (tests/errors/mismatched_activity.c, now this program): the callee would need
// to know at run time whether its argument has a shadow. With runtime activity (issue
// 16) the constant pointer is its own shadow and the callee's derivative for this call
// is generated under run-time checks. Both choices are exercised.
// Oracles: analytic gradient (2x when x is chosen, 0 when y is), central finite
// differences, and the dot-product identity between forward and reverse mode.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 4

__attribute__((noinline)) double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i];
  return s;
}

__attribute__((noinline)) double f(double *x, const double *y, int n, double a) {
  const double *p = a > 0.5 ? y : x;
  return sum(p, n);
}

static double ys[N] = {0.1, 0.9, 0.2, 0.8};
static double ga;
static double eval(void *ctx) { return f((double *)ctx, ys, N, ga); }

int main(void) {
  double as[2] = {0.3, 0.9};
  for (int t = 0; t < 2; t++) {
    ga = as[t];
    double x[N] = {1, 2, 3, 4}, dx[N] = {0}, v[N] = {0.5, -1, 0.25, 2}, want[N];
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, N,
                      enzyme_const, ga);
    for (int i = 0; i < N; i++) want[i] = ga > 0.5 ? 0 : 2 * x[i];
    fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
    double fd[N];
    fz_fd_grad(eval, x, x, N, fd);
    fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, ys, enzyme_const, N,
                                  enzyme_const, ga);
    double dot = 0;
    for (int k = 0; k < N; k++) dot += dx[k] * v[k];
    fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  }
  return fz_finish();
}
