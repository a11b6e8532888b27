// OPT: O0 O1 O2 O3
// Issue 18 (branch cg39): the tape's first slot and the records' first fields are
// addressed by the pointer itself (`Builder::byte_gep` emits no zero-offset
// `getelementptr`). A chain of noinline functions (nested split pairs sharing the
// outermost call's tape region, each with its stack header at its tape's offset 0) with
// every kind of two-way dispatch the reverse sweep reads back from the tape or the
// forward sweep's values: if/else arms holding calls in a counted loop, a merge after a
// branch outside any loop, a loop left by a data-dependent `break` or by its end, and a
// loop whose first iteration is told from the others by its counter.
// Oracle: central finite differences of the same objective, for every input.
#include "fz_test.h"

#define N 7

__attribute__((noinline)) static double g0(const double *x, double *y, int n) {
  double s = x[0] * 0.3;
  for (int k = 0; k < n; k++) {
    double t = x[k] * 0.6 + s * 0.05;
    if (t > 0.2)
      y[k] += 0.4 * sin(t);
    else
      y[k] -= 0.3 * exp(-t * t);
    s += t * y[k];
  }
  return s;
}

__attribute__((noinline)) static double g1(const double *x, double *y, int n) {
  double s = g0(x, y, n);
  double a;
  if (s > 0.1)
    a = sin(s) * x[1];
  else
    a = exp(s) * x[2];
  for (int k = 0; k < n; k++) y[k] = y[k] * (1.0 + 0.1 * a) + 0.05 * x[(k + 1) % n];
  return a + s;
}

__attribute__((noinline)) static double g2(const double *x, double *y, int n) {
  double s = g1(x, y, n);
  double acc = 0.0;
  int k = 0;
  for (; k < n; k++) {
    if (x[k] > 0.8) break;
    acc += cos(x[k] * s) * y[k];
  }
  return acc + s * (k + 1);
}

__attribute__((noinline)) static double g3(const double *x, double *y, int n) {
  double s = g2(x, y, n);
  double p = 1.0;
  for (int k = 0; k < n; k++) p = k == 0 ? p * y[0] : p * 0.9 + sin(y[k] * s) * 0.2;
  return s + p;
}

static double objective(const double *x, double *y, int n) {
  double r = g3(x, y, n);
  for (int k = 0; k < n; k++) r += (0.3 + 0.1 * k) * y[k];
  return r;
}

typedef struct { double x[N], y[N]; } ctx_t;

static double eval(void *c) {
  ctx_t *t = c;
  double y[N];
  for (int k = 0; k < N; k++) y[k] = t->y[k];
  return objective(t->x, y, N);
}

int main(void) {
  fz_seed(1399);
  ctx_t c;
  fz_fill(c.x, N, -1, 1);
  fz_fill(c.y, N, -1, 1);
  c.x[4] = 0.9; /* g2's loop leaves by its break at k = 4 */
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int k = 0; k < N; k++) x[k] = c.x[k], y[k] = c.y[k];
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    fz_check("dx", dx[k], fz_fd_ptr(eval, &c, &c.x[k]), 1e-6);
    fz_check("dy", dy[k], fz_fd_ptr(eval, &c, &c.y[k]), 1e-6);
  }
  return fz_finish();
}
