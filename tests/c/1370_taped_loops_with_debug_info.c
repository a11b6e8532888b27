// OPT: O0 O1 O2 O3
// CFLAGS: -g
// VARIANTS: all
// Tape stacks in every kind of taped loop, with debug information on (`-g`), at every
// level, `--ad-before-opt` and the plugin: a counted loop with a branch (room reserved
// once, records pushed unchecked by `__fz_push_reserved`), a loop whose trip count the
// data decides (checked `__fz_push`, the buffer growing past its inline room), a nested
// loop whose inner count is the outer counter, and a chain of `noinline` functions each
// with such a loop calling the previous one (nested split pairs that `ferrozyme cc`
// merges into chunks before the pipeline, the shape of bench/compile_scaling's `chain`).
// Written for cc34's experiment of copying the stack helpers (`__fz_top`, `__fz_pop`,
// `__fz_push_reserved`) into their callers before the post-AD pipeline (measured and
// dropped: bench/compile_scaling/README.md "cc34"): a next attempt at writing runtime or
// pieces into their callers by hand must keep these gradients and give the copies a
// debug location where LLVM's inliner would. Oracle: central finite differences of the
// same functions for every coordinate (n = 1, 5, 24).
#include "fz_test.h"

enum { N = 24 };

static __attribute__((noinline)) double counted(const double *x, double *y, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    double t = x[k] * 0.7 + 0.1 * k;
    if (t > 0.3)
      y[k] += 0.5 * sin(t);
    else
      y[k] -= 0.25 * exp(-t * t);
    s += y[k] * t;
  }
  return s;
}

/* the trip count follows the data: halving until below a threshold */
static __attribute__((noinline)) double until_small(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    double v = 40.0 + 30.0 * x[k];
    while (v > 0.75) {
      s += sin(v) * x[k];
      v = v * 0.5 + 0.01 * x[k];
    }
  }
  return s;
}

static __attribute__((noinline)) double triangle(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = exp(0.1 * x[i]);
    for (int j = 0; j < i; j++) s += r * cos(x[j] * r);
  }
  return s;
}

static __attribute__((noinline)) double c0(const double *x, double *y, int n) {
  return counted(x, y, n);
}
static __attribute__((noinline)) double c1(const double *x, double *y, int n) {
  double s = c0(x, y, n);
  for (int k = 0; k < n; k++) {
    double t = x[k] * 0.3 + s * 0.01;
    y[k] += t > 0.2 ? 0.1 * sin(t) : -0.1 * exp(-t * t);
  }
  return s + y[0];
}
static __attribute__((noinline)) double c2(const double *x, double *y, int n) {
  double s = c1(x, y, n);
  for (int k = 0; k < n; k++) {
    double t = x[k] * 0.9 - s * 0.02;
    y[k] += t > 0.0 ? 0.2 * sin(t) : -0.2 * exp(-t * t);
  }
  return s + y[n - 1];
}

static double total(const double *x, int n) {
  double y[N];
  for (int k = 0; k < n; k++) y[k] = 0.1 * k;
  double s = c2(x, y, n) + until_small(x, n) + triangle(x, n);
  for (int k = 0; k < n; k++) s += y[k] * y[k];
  return s;
}

static double X[N];
static double eval(void *ctx) { return total(X, *(int *)ctx); }

int main(void) {
  fz_seed(1370);
  const int sizes[] = {1, 5, N};
  for (int c = 0; c < 3; c++) {
    int n = sizes[c];
    fz_fill(X, n, -1.0, 1.0);
    double dx[N] = {0}, fd[N];
    __enzyme_autodiff((void *)total, X, dx, n);
    fz_fd_grad(eval, &n, X, n, fd);
    char what[64];
    snprintf(what, sizeof what, "d total / dx, n = %d", n);
    fz_check_arr(what, dx, fd, n, 1e-6);
  }
  return fz_finish();
}
