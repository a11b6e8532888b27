// OMP_THREADS: 1 2 4
// OPT: O0 O2
// `#pragma omp cancel for` and `cancellation point for` in a differentiated loop (a
// search that stops the team when an entry passes a threshold), with cancellation on
// (the program sets OMP_CANCELLATION=true before libomp starts). Which iterations the
// other threads skip after one thread cancels depends on timing; the loop records the
// iterations that ran (an inactive integer array), and the derivative must be that of
// the sum over those: the reverse sweep follows each thread's recorded control flow.
// First input: no entry passes the threshold, the whole loop runs: reverse mode against
// central finite differences of the serial program, forward mode by the dot-product
// identity. Second input: an entry passes it: reverse and forward mode against the
// analytic derivative over the iterations each call ran.
#include <omp.h>
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 23

static int ran[N];
static double limit = 100.0;

double loss(const double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      if (x[i] > limit) {
#pragma omp cancel for
      }
      ran[i] = 1;
      s += x[i] * x[i] * (1.0 + 0.1 * i) + cos(x[i]);
#pragma omp cancellation point for
    }
  }
  return s * s;
}

static double serial(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (1.0 + 0.1 * i) + cos(x[i]);
  return s * s;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

/* The loss over the iterations `ran` says ran, its gradient (g) and its derivative
 * along v. */
static double over_ran(const double *x, double *g, const double *v) {
  double s = 0, jv = 0;
  for (int i = 0; i < N; i++)
    if (ran[i]) s += x[i] * x[i] * (1.0 + 0.1 * i) + cos(x[i]);
  for (int i = 0; i < N; i++) {
    double d = ran[i] ? 2 * s * (2 * x[i] * (1.0 + 0.1 * i) - sin(x[i])) : 0;
    if (g) g[i] = d;
    if (v) jv += d * v[i];
  }
  return jv;
}

int main(void) {
  setenv("OMP_CANCELLATION", "true", 1);
  fz_seed(88);
  fz_fill(xs, N, -0.9, 0.9);
  double g[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);

  /* an entry passes the threshold: the team cancels */
  limit = 0.6;
  xs[N / 3] = 0.8;
  int ran_any_after = 0;
  for (int rep = 0; rep < 3; rep++) {
    double want[N];
    for (int i = 0; i < N; i++) ran[i] = 0;
    fz_zero(g, N);
    __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
    over_ran(xs, want, 0);
    fz_check_arr("cancelled: grad vs analytic over the iterations that ran", g, want, N, 1e-10);
    fz_check("cancelled: the threshold entry's iteration did not add", ran[N / 3], 0, 0);
    for (int i = N / 3 + 1; i < N; i++) ran_any_after |= ran[i];
    for (int i = 0; i < N; i++) ran[i] = 0;
    jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
    fz_check("cancelled: forward vs analytic over the iterations that ran", jv, over_ran(xs, 0, v), 1e-10);
  }
  (void)ran_any_after; /* other threads' chunks may or may not have run: both are fine */
  return fz_finish();
}
