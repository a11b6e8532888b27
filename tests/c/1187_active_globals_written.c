// OPT: O0 O1 O2 O3
// Globals written inside the differentiated function with active values: a global
// accumulator array and a global scalar "last state" that a helper reads back, reset
// at the function's start (the style of Fortran-like C with COMMON-block state).
// Enzyme gives such globals shadows of its own; here the derivative through the global
// round trip must arrive (the global's shadow starts at zero on every call); and a
// global pointer to a buffer malloc'd, filled by a helper, read and freed inside.
// Oracle: central differences of the primal, analytic for the buffer.
#include "fz_test.h"

enum { N = 6 };
double g_acc[N];
double g_last;
int g_calls;

static void stage(const double *x, int i) {
  g_acc[i] = sin(x[i]) * (i > 0 ? g_acc[i - 1] + 1.0 : 1.0);
  g_last = g_acc[i];
  g_calls++;
}

static double readout(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += g_acc[i] * g_acc[i];
  return s + 3.0 * g_last;
}

double pipeline(const double *x, int n) {
  memset(g_acc, 0, sizeof g_acc);
  g_last = 0;
  for (int i = 0; i < n; i++) stage(x, i);
  return readout(n);
}

/* a global pointer to a buffer allocated, filled by a helper, read and freed inside */
double *g_buf;
static void fill(const double *x, int n) {
  for (int i = 0; i < n; i++) g_buf[i] = x[i] * x[i];
}
double heap_global(const double *x, int n) {
  g_buf = malloc(n * sizeof *g_buf);
  fill(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += g_buf[i] * x[i];
  free(g_buf);
  g_buf = NULL;
  return s;
}

static double ctx(void *c) { return pipeline((const double *)c, N); }

int main(void) {
  double x[N] = {0.4, -0.9, 1.3, 0.2, -0.6, 0.75}, dx[N] = {0}, fd[N];
  char nm[48];
  for (int rep = 0; rep < 2; rep++) {
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)pipeline, enzyme_dup, x, dx, enzyme_const, N);
    fz_fd_grad(ctx, x, x, N, fd);
    for (int i = 0; i < N; i++) {
      snprintf(nm, sizeof nm, "call %d dx[%d]", rep, i);
      fz_check(nm, dx[i], fd[i], 1e-6);
    }
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)heap_global, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "heap global dx[%d]", i);
    fz_check(nm, dx[i], 3 * x[i] * x[i], 1e-14);
  }
  return fz_finish();
}
