// OPT: O0 O1 O2 O3
// Tape stacks that grow many times within one gradient (perf26: `__fz_grow` skips the
// copy when the old buffer holds no bytes). (1) A combined gradient of a loop whose trip
// count is read at run time: its stack starts in the 256-byte inline buffer and grows to
// the slab, then to pooled or fresh heap buffers (20,000 pushes of a taped sin value,
// about 160 KB: a dozen growths), twice, so the second gradient takes buffers from the
// pool. (2) Split mode (`__enzyme_augmentfwd` / `__enzyme_reverse`): the tape's stack
// starts with no buffer (capacity 1), so its first growth has nothing to copy, then grows
// on. (3) A recursion whose every call's stack starts empty and grows once or more.
// Oracles: the analytic derivative of each program, evaluated in the same run by a
// hand-written backward recurrence, and central finite differences.
#include <math.h>
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);

// w_{k+1} = sin(w_k + a[k % m]) for k < n; returns w_n. `n` is read through a pointer so
// the trip count is unknown to the transform (a growing stack, no reservation).
__attribute__((noinline)) static double chain(const double *a, int m, const int *n) {
  double w = 0.25;
  for (int k = 0; k < *n; k++) w = sin(w + a[k % m]);
  return w;
}

// Hand-written reverse of `chain`: da[j] = sum over k with k % m == j of dw_n/dw_{k+1} *
// cos(w_k + a[j]).
static void chain_grad(const double *a, int m, int n, double *da) {
  double *w = malloc(sizeof(double) * (size_t)(n + 1));
  w[0] = 0.25;
  for (int k = 0; k < n; k++) w[k + 1] = sin(w[k] + a[k % m]);
  double bar = 1.0;
  for (int j = 0; j < m; j++) da[j] = 0.0;
  for (int k = n - 1; k >= 0; k--) {
    double d = bar * cos(w[k] + a[k % m]);
    da[k % m] += d;
    bar = d;
  }
  free(w);
}

enum { M = 7 };
static int g_n;
static double eval_chain(void *ctx) { return chain((const double *)ctx, M, &g_n); }

// A recursion: each call tapes `len` sin values in its own loop (split tapes: every
// call's stack starts empty), then recurses on the rest.
__attribute__((noinline)) static double rec(const double *x, int len, int depth) {
  double s = 0.0;
  for (int i = 0; i < len; i++) s = sin(s + x[i]);
  if (depth == 0) return s;
  return s * rec(x + 1, len, depth - 1);
}

static double rec_ref(const double *x, int len, int depth) {
  double s = 0.0;
  for (int i = 0; i < len; i++) s = sin(s + x[i]);
  if (depth == 0) return s;
  return s * rec_ref(x + 1, len, depth - 1);
}

enum { LEN = 600, DEPTH = 6 };
static double eval_rec(void *ctx) { return rec_ref((const double *)ctx, LEN, DEPTH); }

int main(void) {
  double a[M], da[M], want[M];
  fz_seed(1020);
  fz_fill(a, M, -0.3, 0.3);

  // (1) Combined mode, 20,000 pushes, twice (the second from the pool).
  g_n = 20000;
  chain_grad(a, M, g_n, want);
  for (int rep = 0; rep < 2; rep++) {
    fz_zero(da, M);
    __enzyme_autodiff((void *)chain, a, da, enzyme_const, M, enzyme_const, &g_n);
    fz_check_arr("combined chain da (analytic)", da, want, M, 1e-10);
  }
  for (int j = 0; j < M; j++) {
    double fd = fz_fd_ptr(eval_chain, a, &a[j]);
    fz_check("combined chain da (finite differences)", da[j], fd, 1e-6);
  }

  // (2) Split mode: a stack that starts with no buffer and grows (3,000 pushes), then a
  // shorter one (5 pushes: one growth from empty) and an empty one (no growth).
  int lens[3] = {3000, 5, 0};
  for (int t = 0; t < 3; t++) {
    g_n = lens[t];
    chain_grad(a, M, g_n, want);
    fz_zero(da, M);
    void *tape = __enzyme_augmentfwd((void *)chain, a, da, enzyme_const, M, enzyme_const, &g_n);
    __enzyme_reverse((void *)chain, a, da, enzyme_const, M, enzyme_const, &g_n, 1.0, tape);
    fz_check_arr("split chain da (analytic)", da, want, M, 1e-10);
  }

  // (3) A recursion: DEPTH + 1 calls, each with its own stack grown from empty.
  double x[LEN + DEPTH], dx[LEN + DEPTH], fdx[LEN + DEPTH];
  fz_fill(x, LEN + DEPTH, -0.5, 0.5);
  for (int rep = 0; rep < 2; rep++) {
    fz_zero(dx, LEN + DEPTH);
    __enzyme_autodiff((void *)rec, x, dx, enzyme_const, LEN, enzyme_const, DEPTH);
  }
  fz_zero(dx, LEN + DEPTH);
  __enzyme_autodiff((void *)rec, x, dx, enzyme_const, LEN, enzyme_const, DEPTH);
  fz_fd_grad(eval_rec, x, x, LEN + DEPTH, fdx);
  fz_check_arr("recursion dx (finite differences)", dx, fdx, LEN + DEPTH, 1e-6);
  return fz_finish();
}
