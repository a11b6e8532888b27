// OPT: O0 O1 O2 O3
// Tape regions (reverse/tape_region.rs): the record stacks of counted loops in split-mode
// functions (nested pairs, outermost split pairs) take their whole room from one bump
// region per outermost call, claimed once per loop nest and released once when the
// outermost reverse sweep ends. Covered: a chain of callees with counted loops (many
// claims, the region growing over several chunks, the first from the slab, larger ones
// from the pool or malloc); a rotated nest whose sure bound covers the inner loop only
// (its own stack, reserved per outer iteration as before, beside claimed ones); a loop
// skipped at run time (a claim of 0 bytes) and loops in both arms of a branch (one claim
// not made); a loop with a `break` (no sure bound: its own growable stack, released on
// its own) beside claimed ones; recursion (every recursive call owns a region, its
// non-recursive callees claim from it); a callee with no loop (its caller's region is
// passed on, unused); and split mode (__enzyme_augmentfwd / __enzyme_reverse) with two
// tapes alive at once reversed in the order they were made (FIFO, not LIFO: each
// tape's region is its own) and with the block copied into caller memory
// (enzyme_allocated). Every function overwrites y in place, so every callee's reverse
// needs its own records. Oracles: central finite differences of the primal, and split
// mode against __enzyme_autodiff.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated, enzyme_noret;
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_augmentfwd_void(void *, ...);
extern void __enzyme_reverse(void *, ...);

#define N 40
#define NOINLINE __attribute__((noinline))

NOINLINE void counted(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = sin(y[i]) * x[i] + 0.3 * y[i];
}
NOINLINE void nest(const double *x, double *y, int n, int m) {
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++) y[i] = y[i] * cos(x[(i + j) % n]) + 0.01 * x[i];
}
NOINLINE void skipped(const double *x, double *y, int k) {
  for (int i = 0; i < k; i++) y[i] = y[i] * y[i] * x[i];
}
NOINLINE void branchy(const double *x, double *y, int n) {
  if (x[0] > 0) {
    for (int i = 0; i < n; i++) y[i] = exp(-y[i] * y[i]) + x[i] * y[i];
  } else {
    for (int i = 0; i < n; i++) y[i] = y[i] * y[i] * x[i] - 0.2 * y[i];
  }
}
NOINLINE void breaks(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    if (y[i] > 50.0) /* never true here: the count is stable under perturbation */
      break;
    y[i] = tanh(y[i]) * x[i] + y[i] * 0.5;
  }
}
NOINLINE void noloop(const double *x, double *y) { y[1] = y[1] * x[2] + sin(y[0]); }
NOINLINE void chain3(const double *x, double *y, int n) {
  counted(x, y, n);
  noloop(x, y);
  counted(x, y, n / 2);
}
NOINLINE void rec(const double *x, double *y, int n, int d) {
  if (d == 0)
    return;
  counted(x, y, n - d);
  rec(x, y, n, d - 1);
  for (int i = 0; i < n; i++) y[i] = y[i] * x[(i + d) % n] + 0.1;
}

static double wsum(const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (0.5 + 0.01 * i) * y[i];
  return s;
}

NOINLINE double all(const double *x, double *y, int n) {
  chain3(x, y, n);
  nest(x, y, n, 3);
  skipped(x, y, 0);
  skipped(x, y, n / 4);
  branchy(x, y, n);
  breaks(x, y, n);
  counted(x, y, n);
  return wsum(y, n);
}
NOINLINE double recursive(const double *x, double *y, int n) {
  rec(x, y, n, 5);
  return wsum(y, n);
}
/* The void function split mode differentiates (its output is y). */
NOINLINE void allv(const double *x, double *y, int n) { all(x, y, n); }

static double X[N], Y0[N];
static double (*cur)(const double *, double *, int);
static double eval(void *c) {
  (void)c;
  double y[N];
  memcpy(y, Y0, sizeof y);
  return cur(X, y, N);
}
static double eval_allv(void *c) {
  (void)c;
  double y[N];
  memcpy(y, Y0, sizeof y);
  allv(X, y, N);
  return wsum(y, N);
}

static void check_fd(const char *what, double (*e)(void *), const double *dx,
                     const double *dy) {
  double gx[N], gy[N];
  char buf[120];
  fz_fd_grad(e, NULL, X, N, gx);
  fz_fd_grad(e, NULL, Y0, N, gy);
  snprintf(buf, sizeof buf, "%s d/dx", what);
  fz_check_arr(buf, dx, gx, N, 1e-6);
  snprintf(buf, sizeof buf, "%s d/dy", what);
  fz_check_arr(buf, dy, gy, N, 1e-6);
}

#define CHECK(f)                                                                       \
  do {                                                                                 \
    double y[N], dx[N] = {0}, dy[N] = {0};                                             \
    memcpy(y, Y0, sizeof y);                                                           \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, N); \
    cur = f;                                                                           \
    check_fd(#f, eval, dx, dy);                                                        \
  } while (0)

/* The seed of split mode's y: the weights of wsum. */
static void seed(double *dy) {
  for (int i = 0; i < N; i++) dy[i] = 0.5 + 0.01 * i;
}

int main(void) {
  fz_seed(880);
  for (int t = 0; t < 2; t++) {
    fz_fill(X, N, 0.2, 1.1);
    if (t == 1)
      X[0] = -X[0]; /* the other arm of branchy */
    fz_fill(Y0, N, -0.8, 0.8);
    CHECK(all);
    CHECK(recursive);
    /* Again: the per-thread pool now holds the chunks the first gradients gave back. */
    CHECK(all);
  }

  /* Split mode, two tapes alive at once, reversed first-made first. */
  {
    double xs[2][N], y0s[2][N], ys[2][N], dxs[2][N], dys[2][N];
    void *tapes[2];
    for (int k = 0; k < 2; k++) {
      fz_fill(xs[k], N, 0.2, 1.1);
      fz_fill(y0s[k], N, -0.8, 0.8);
      memcpy(ys[k], y0s[k], sizeof ys[k]);
      fz_zero(dxs[k], N);
      seed(dys[k]);
      tapes[k] = __enzyme_augmentfwd((void *)allv, enzyme_dup, xs[k], dxs[k], enzyme_dup,
                                     ys[k], dys[k], enzyme_const, N);
    }
    for (int k = 0; k < 2; k++) {
      double yref[N];
      memcpy(yref, y0s[k], sizeof yref);
      memcpy(X, xs[k], sizeof X);
      allv(X, yref, N);
      fz_check_arr("split: primal written by augmentfwd", ys[k], yref, N, 0.0);
      __enzyme_reverse((void *)allv, enzyme_dup, xs[k], dxs[k], enzyme_dup, ys[k], dys[k],
                       enzyme_const, N, tapes[k]);
      memcpy(Y0, y0s[k], sizeof Y0);
      check_fd("split allv (FIFO)", eval_allv, dxs[k], dys[k]);
      /* Against the combined derivative of the same function. */
      double y[N], ax[N] = {0}, ay[N];
      memcpy(y, y0s[k], sizeof y);
      seed(ay);
      __enzyme_autodiff((void *)allv, enzyme_dup, X, ax, enzyme_dup, y, ay, enzyme_const, N);
      fz_check_arr("split vs autodiff d/dx", dxs[k], ax, N, 1e-12);
      fz_check_arr("split vs autodiff d/dy", dys[k], ay, N, 1e-12);
    }
  }
  /* The block copied into caller memory (the region's slot with it), FIFO again. */
  {
    static unsigned char buf[2][4096];
    double xs[2][N], y0s[2][N], ys[2][N], dxs[2][N], dys[2][N];
    for (int k = 0; k < 2; k++) {
      fz_fill(xs[k], N, 0.2, 1.1);
      fz_fill(y0s[k], N, -0.8, 0.8);
      memcpy(ys[k], y0s[k], sizeof ys[k]);
      fz_zero(dxs[k], N);
      seed(dys[k]);
      __enzyme_augmentfwd_void((void *)allv, enzyme_allocated, 4096, enzyme_tape, buf[k],
                               enzyme_dup, xs[k], dxs[k], enzyme_dup, ys[k], dys[k],
                               enzyme_const, N);
    }
    for (int k = 0; k < 2; k++) {
      __enzyme_reverse((void *)allv, enzyme_allocated, 4096, enzyme_tape, buf[k],
                       enzyme_dup, xs[k], dxs[k], enzyme_dup, ys[k], dys[k], enzyme_const, N);
      memcpy(X, xs[k], sizeof X);
      memcpy(Y0, y0s[k], sizeof Y0);
      check_fd("allocated tape allv (FIFO)", eval_allv, dxs[k], dys[k]);
    }
  }
  return fz_finish();
}
