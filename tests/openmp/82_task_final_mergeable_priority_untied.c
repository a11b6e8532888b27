// OMP_THREADS: 1 2
// (Not 3 or 4 threads: `loss2`'s primal alone, built by plain `clang-22 -fopenmp` at
// -O0 or -O2 without Ferrozyme, deadlocks in libomp there: 8 of 10 runs of 30 calls hung
// at 3 threads, 10 of 10 at 4, 0 of 40 at 2. A thread waiting in `taskwait` runs another
// untied task on its own stack, which then waits for a task suspended below it. The
// suite's trial at 4 threads timed out once, in the primal `loss2`, session 24.)
// OPT: O0 O2
// A recursive divide-and-conquer reduction with tasks as people write it to bound the
// task overhead: `final(depth >= 3)` (deeper tasks run undeferred, included in their
// parent), `mergeable`, `untied` and `priority(depth)` on the tasks, `taskwait` to
// combine the halves, under `parallel` + `single`; the leaves evaluate a nonlinear
// function of the input. Reverse mode against central finite differences of the serial
// recursion; forward mode by the dot-product identity with reverse mode.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 37

static double leaf(const double *x, int lo, int hi) {
  double s = 0;
  for (int i = lo; i < hi; i++) s += x[i] * x[i] * (1.0 + 0.1 * i) + sin(x[i] * x[(i + 1) % N]);
  return s;
}

static double rsum(const double *x, int lo, int hi, int depth) {
  if (hi - lo <= 4) return leaf(x, lo, hi);
  int mid = lo + (hi - lo) / 2;
  double a = 0, b = 0;
#pragma omp task shared(a) final(depth >= 3) mergeable untied priority(depth)
  a = rsum(x, lo, mid, depth + 1);
#pragma omp task shared(b) final(depth >= 3) mergeable untied priority(depth)
  b = rsum(x, mid, hi, depth + 1);
#pragma omp taskwait
  return a * (1.0 + 0.01 * depth) + b;
}

/* The same recursion with the children created inside an untied task whose body has
 * task scheduling points (taskyield, taskwait): clang splits that body into parts, each
 * enqueued again when the previous one reaches a scheduling point. */
static double rsum2(const double *x, int lo, int hi, int depth) {
  if (hi - lo <= 4) return leaf(x, lo, hi);
  int mid = lo + (hi - lo) / 2;
  double a = 0, b = 0, r = 0;
#pragma omp task shared(a, b, r) untied
  {
#pragma omp task shared(a) untied
    a = rsum2(x, lo, mid, depth + 1);
#pragma omp taskyield
#pragma omp task shared(b) untied
    b = rsum2(x, mid, hi, depth + 1);
#pragma omp taskwait
    r = a * (1.0 + 0.01 * depth) + b;
  }
#pragma omp taskwait
  return r;
}

double loss2(const double *x, int n) {
  double r = 0;
#pragma omp parallel
#pragma omp single
  r = rsum2(x, 0, n, 0);
  return r * r;
}

double loss(const double *x, int n) {
  double r = 0;
#pragma omp parallel
#pragma omp single
  r = rsum(x, 0, n, 0);
  return r * r;
}

static double srsum(const double *x, int lo, int hi, int depth) {
  if (hi - lo <= 4) return leaf(x, lo, hi);
  int mid = lo + (hi - lo) / 2;
  return srsum(x, lo, mid, depth + 1) * (1.0 + 0.01 * depth) + srsum(x, mid, hi, depth + 1);
}
static double serial(const double *x, int n) {
  double r = srsum(x, 0, n, 0);
  return r * r;
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(82);
  fz_fill(xs, N, -0.8, 0.8);
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
  double g2[N];
  fz_zero(g2, N);
  fz_check("untied parts: value vs serial", loss2(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss2, enzyme_dup, xs, g2, enzyme_const, N);
  fz_check_arr("untied parts: grad vs the first gradient", g2, g, N, 1e-12);
  double jv2 = __enzyme_fwddiff((void *)loss2, enzyme_dup, xs, v, enzyme_const, N);
  fz_check("untied parts: forward . v = reverse . v", jv2, dot, 1e-10);
  return fz_finish();
}
