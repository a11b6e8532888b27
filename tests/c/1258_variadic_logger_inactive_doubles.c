// OPT: O0 O1 O2 O3
// Variadic helpers (`va_list`) beside differentiated code: a `vlog(level, fmt, ...)`
// logger given active doubles (they are only formatted into a buffer: no derivative
// flows through it, and its `va_arg` reads are fine because nothing differentiable comes
// back out), and a `sum_n(int n, ...)` variadic sum called with CONSTANT doubles to
// build a coefficient. The active path never reads an active value through `va_arg`
// (that is tests/errors/variadic_active.c). Oracle: analytic derivatives.
#include <stdarg.h>
#include "fz_test.h"

static char g_log[256];
static int g_level = 1;

__attribute__((noinline)) static void vlog(int level, const char *fmt, ...) {
  if (level > g_level) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_log, sizeof g_log, fmt, ap);
  va_end(ap);
}

__attribute__((noinline)) static double sum_n(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return s;
}

double model(const double *x, int n) {
  double c = sum_n(3, 0.5, 0.25, 0.125); /* 0.875, constant */
  double f = 0;
  for (int i = 0; i < n; i++) {
    double t = c * x[i] * x[i] + sin(x[i]);
    vlog(1, "i=%d x=%.3f t=%.3f", i, x[i], t);
    f += t;
  }
  vlog(1, "f=%.6f", f);
  return f;
}

int main(void) {
  double x[4] = {0.3, -1.1, 2.2, 0.7}, dx[4] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, 4);
  char nm[32];
  for (int i = 0; i < 4; i++) {
    snprintf(nm, sizeof nm, "dx[%d]", i);
    fz_check(nm, dx[i], 2 * 0.875 * x[i] + cos(x[i]), 1e-12);
  }
  double f = model(x, 4);
  char want[64];
  snprintf(want, sizeof want, "f=%.6f", f);
  fz_check("logger ran in the augmented pass", strcmp(g_log, want) == 0, 1, 0);
  return fz_finish();
}
