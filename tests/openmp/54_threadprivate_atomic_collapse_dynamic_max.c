// OMP_THREADS: 1 2 4
// OPT: O0 O2
// One region combining work sharing a particle or histogram code writes: a
// `collapse(2) schedule(dynamic, 2)` pair loop writing a shared matrix with a
// `reduction(max:)` of its entries, `#pragma omp atomic` updates of an active shared
// histogram (several iterations hit each bin), and a `threadprivate` accumulator each
// thread zeroes, fills in an orphaned-style `omp for nowait` and adds into a shared
// total atomically. Against the same computation written serially (value, 1e-12), that
// serial program's gradient and central finite differences, and forward mode against
// reverse (the dot-product identity).
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 6
#define M 5
#define H 4
#define K 20

static double partial;
#pragma omp threadprivate(partial)

double loss(const double *x) {
  double y[N * M], hist[H] = {0, 0, 0, 0}, big = -1e300, tot = 0;
#pragma omp parallel
  {
#pragma omp for collapse(2) schedule(dynamic, 2) reduction(max : big)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) {
        double v = x[i] * x[j + 1] + sin(x[(i + j) % N]);
        y[i * M + j] = v;
        if (v > big) big = v;
      }
#pragma omp for
    for (int k = 0; k < K; k++) {
#pragma omp atomic
      hist[k % H] += x[k % N] * y[k];
    }
    partial = 0;
#pragma omp for nowait
    for (int k = 0; k < N * M; k++) partial += y[k] * y[k] * 0.1;
#pragma omp atomic
    tot += partial;
  }
  double s = big * big + tot;
  for (int b = 0; b < H; b++) s += hist[b] * hist[b] * (b + 1);
  return s;
}

double serial_loss(const double *x) {
  double y[N * M], hist[H] = {0, 0, 0, 0}, big = -1e300, tot = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      double v = x[i] * x[j + 1] + sin(x[(i + j) % N]);
      y[i * M + j] = v;
      if (v > big) big = v;
    }
  for (int k = 0; k < K; k++) hist[k % H] += x[k % N] * y[k];
  for (int k = 0; k < N * M; k++) tot += y[k] * y[k] * 0.1;
  double s = big * big + tot;
  for (int b = 0; b < H; b++) s += hist[b] * hist[b] * (b + 1);
  return s;
}

static double x0[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial_loss(x0);
}

int main(void) {
  fz_seed(54);
  fz_fill(x0, N, -1, 1);
  double dx[N], ds[N];
  fz_zero(dx, N);
  fz_zero(ds, N);
  fz_check("value vs serial", loss(x0), serial_loss(x0), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, x0, dx);
  __enzyme_autodiff((void *)serial_loss, enzyme_dup, x0, ds);
  fz_check_arr("gradient vs serial", dx, ds, N, 1e-12);
  for (int k = 0; k < N; k++) fz_check("serial vs fd", ds[k], fz_fd_ptr(eval, 0, &x0[k]), 1e-6);
  double v[N], dot = 0;
  for (int k = 0; k < N; k++) v[k] = 0.1 * (k + 1) - 0.25, dot += dx[k] * v[k];
  fz_check("forward vs reverse", __enzyme_fwddiff((void *)loss, enzyme_dup, x0, v), dot, 1e-12);
  return fz_finish();
}
