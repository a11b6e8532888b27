// OPT: O0 O2
// static45: globals a differentiated function uses as scratch and as tables of
// constants, with a forward derivative after two reverse ones (each top-level derivative
// starts from zero derivatives of every global): `double acc[N]` of partial sums written
// before it is read, `double lut[N]` filled on the first call inside the derivative and
// only read after, a static array of weights, a global pointer to a buffer `main`
// allocates before any derivative, refilled inside. Oracles: analytic gradient, central differences, forward = reverse.
#include <math.h>
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 6
static double acc[N + 1];
static double lut[N];
static int lut_ready;
static double storage[N] = {1.5, 0.5, -0.25, 2.0, 1.0, 0.75};
static double *heap; /* allocated by main */

/* f = (sum_i w_i x_i)^2 + sum_i l_i x_i^2 + sum_i h_i x_i, l_i = 1 + i / 2, h_i = x_i
 * (refilled from x on each call: h contributes 2 x_i). */
double f(const double *x, int n) {
  if (!lut_ready) {
    for (int k = 0; k < N; k++) lut[k] = 1.0 + 0.5 * k;
    lut_ready = 1;
  }
  acc[0] = 0;
  for (int i = 0; i < n; i++) acc[i + 1] = acc[i] + storage[i] * x[i];
  for (int i = 0; i < n; i++) heap[i] = x[i];
  double s = acc[n] * acc[n];
  for (int i = 0; i < n; i++) s += lut[i] * x[i] * x[i] + heap[i] * x[i];
  return s;
}

static double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5};
static double eval_f(void *ctx) { (void)ctx; return f(x, N); }

int main(void) {
  heap = calloc(N, sizeof(double));
  double dx[N];
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < N; i++) dx[i] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += storage[i] * x[i];
    for (int i = 0; i < N; i++) {
      fz_check("analytic", dx[i], 2 * dot * storage[i] + 2 * (1.0 + 0.5 * i) * x[i] + 2 * x[i], 1e-10);
      fz_check("central differences", dx[i], fz_fd_ptr(eval_f, 0, &x[i]), 1e-6);
    }
  }
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    fz_check("fwd = rev", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N), dx[i], 1e-10);
  }
  free(heap);
  return fz_finish();
}
