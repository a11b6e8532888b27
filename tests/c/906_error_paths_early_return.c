// OPT: O0 O1 O2 O3
// Error handling as C libraries write it, inside the differentiated function (sweep22):
// a Newton solver returning a status code through an `int *` and its result through a
// `double *`, early `return`s on bad input (a NaN check with `isnan`, a non-positive
// scale), a `goto fail` cleanup path that frees two `malloc`ed work arrays, `errno`
// cleared and tested around `log`, and a fallback value on the failure path. The
// gradient is taken at points on the success path and at a point that fails (where the
// fallback's own derivative is the truth). Oracles: the implicit function theorem for
// the Newton root (dr/dp = -F_p / F_r), finite differences, forward vs reverse.
#include <errno.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { OK = 0, BAD_INPUT = 1, NO_CONVERGENCE = 2 };

// Solves r^3 + a r - b = 0 for r by Newton (a > 0: one real root).
static int solve(double a, double b, double *root) {
  if (isnan(a) || isnan(b)) return BAD_INPUT;
  if (a <= 0) return BAD_INPUT;
  double r = b / (1 + a);
  for (int it = 0; it < 60; it++) {
    double f = r * r * r + a * r - b, fp = 3 * r * r + a;
    double step = f / fp;
    r -= step;
    if (fabs(step) < 1e-15 * (1 + fabs(r))) {
      *root = r;
      return OK;
    }
  }
  return NO_CONVERGENCE;
}

double objective(const double *p, int n, int *status) {
  double *roots = malloc(n * sizeof *roots);
  double *logs = malloc(n * sizeof *logs);
  double s = 0;
  *status = OK;
  for (int i = 0; i < n; i++) {
    int st = solve(p[2 * i], p[2 * i + 1], &roots[i]);
    if (st != OK) {
      *status = st;
      goto fail;
    }
    errno = 0;
    logs[i] = log(roots[i]);
    if (errno != 0) logs[i] = 0; // a non-positive root contributes nothing
  }
  for (int i = 0; i < n; i++) s += roots[i] * roots[i] + 0.5 * logs[i];
  free(logs);
  free(roots);
  return s;
fail:
  free(logs);
  free(roots);
  // The fallback: a smooth penalty of the inputs.
  for (int i = 0; i < 2 * n; i++) s += 0.01 * p[i] * p[i];
  return s;
}

#define NPAIR 3
static double P[2 * NPAIR];
static int ST;
static double ev(void *c) { (void)c; return objective(P, NPAIR, &ST); }

static void root_and_grad(double a, double b, double *r, double *dra, double *drb) {
  solve(a, b, r);
  double Fr = 3 * *r * *r + a;
  *dra = -*r / Fr;
  *drb = 1.0 / Fr;
}

int main(void) {
  const double good[2 * NPAIR] = {1.5, 2.0, 0.7, 3.1, 2.2, 0.9};
  for (int i = 0; i < 2 * NPAIR; i++) P[i] = good[i];
  double dp[2 * NPAIR] = {0};
  int st = -1, dst = 0;
  __enzyme_autodiff((void *)objective, enzyme_dup, P, dp, enzyme_const, NPAIR, enzyme_dup, &st, &dst);
  fz_check("success path status", st, OK, 0);
  double want[2 * NPAIR];
  for (int i = 0; i < NPAIR; i++) {
    double r, ra, rb;
    root_and_grad(P[2 * i], P[2 * i + 1], &r, &ra, &rb);
    double dfdr = 2 * r + 0.5 / r;
    want[2 * i] = dfdr * ra;
    want[2 * i + 1] = dfdr * rb;
  }
  fz_check_arr("success: implicit function theorem", dp, want, 2 * NPAIR, 1e-10);
  double fd[2 * NPAIR];
  fz_fd_grad(ev, NULL, P, 2 * NPAIR, fd);
  fz_check_arr("success: finite differences", dp, fd, 2 * NPAIR, 1e-6);
  double t[2 * NPAIR] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.6}, dot = 0;
  for (int i = 0; i < 2 * NPAIR; i++) dot += t[i] * dp[i];
  double jt = __enzyme_fwddiff((void *)objective, enzyme_dup, P, t, enzyme_const, NPAIR,
                               enzyme_dup, &st, &dst);
  fz_check("success: forward . t vs reverse", jt, dot, 1e-10);

  // A negative root (b < 0): log fails, errno is set, that term drops out.
  P[3] = -1.3;
  fz_zero(dp, 2 * NPAIR);
  __enzyme_autodiff((void *)objective, enzyme_dup, P, dp, enzyme_const, NPAIR, enzyme_dup, &st, &dst);
  fz_fd_grad(ev, NULL, P, 2 * NPAIR, fd);
  fz_check_arr("errno path: finite differences", dp, fd, 2 * NPAIR, 1e-6);

  // A bad scale (a <= 0) in the second pair: the fallback penalty.
  P[3] = 3.1;
  P[2] = -0.5;
  fz_zero(dp, 2 * NPAIR);
  __enzyme_autodiff((void *)objective, enzyme_dup, P, dp, enzyme_const, NPAIR, enzyme_dup, &st, &dst);
  fz_check("failure path status", st, BAD_INPUT, 0);
  for (int i = 0; i < 2 * NPAIR; i++) want[i] = 0.02 * P[i];
  fz_check_arr("failure: fallback gradient", dp, want, 2 * NPAIR, 1e-14);
  return fz_finish();
}
