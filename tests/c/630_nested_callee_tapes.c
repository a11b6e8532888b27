// OPT: O0 O1 O2 O3
// Callee tapes nested in the caller's tape (reverse/tape_nest.rs): a call that runs at
// most once per run of its caller passes its callee a region of the caller's own tape
// instead of a block of its own from the arena. Covered: chains of calls at depths 1, 3
// and 6; calls in both arms of a branch (a region reserved and not used); one callee
// called twice (two regions); a call in a loop (separate tapes, while the callee still
// nests its own callees); recursion (the recursive call keeps separate tapes, the
// callees around it nest); calls through a function pointer (separate tapes); and split
// mode (__enzyme_augmentfwd / __enzyme_reverse, with the tape block also copied into
// the caller's memory by enzyme_allocated, two alive at once, reversed LIFO). Every
// function overwrites y in place, so every callee's reverse needs its own tape. Oracles:
// central finite differences of the primal, and split mode against __enzyme_autodiff.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated, enzyme_noret;
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_augmentfwd_void(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

#define N 5
#define NOINLINE __attribute__((noinline))

NOINLINE void lvl0(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = sin(y[i]) * x[i] + 0.3 * y[i];
}
NOINLINE void lvl1(const double *x, double *y, int n) {
  lvl0(x, y, n);
  double t = y[0];
  y[0] = t * t * x[1] + 0.5 * t;
}
NOINLINE void lvl2(const double *x, double *y, int n) {
  lvl1(x, y, n);
  y[1] = y[1] * cos(x[2] + y[1]);
}
NOINLINE void lvl3(const double *x, double *y, int n) {
  lvl2(x, y, n);
  y[n - 1] = exp(0.1 * y[n - 1]) * x[0];
}
NOINLINE void lvl4(const double *x, double *y, int n) {
  lvl3(x, y, n);
  for (int i = 1; i < n; i++) y[i] += 0.2 * y[i - 1] * x[i];
}
NOINLINE void lvl5(const double *x, double *y, int n) {
  lvl4(x, y, n);
  y[2] = y[2] / (1.0 + y[2] * y[2]);
}

static double wsum(const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (1.0 + 0.25 * i) * y[i];
  return s;
}

NOINLINE double depth1(const double *x, double *y, int n) {
  lvl0(x, y, n);
  return wsum(y, n);
}
NOINLINE double depth3(const double *x, double *y, int n) {
  lvl2(x, y, n);
  return wsum(y, n);
}
NOINLINE double depth6(const double *x, double *y, int n) {
  lvl5(x, y, n);
  return wsum(y, n);
}

/* A call in each arm: only one region is filled per run. */
NOINLINE double branchy(const double *x, double *y, int n) {
  if (x[0] > 0.0)
    lvl3(x, y, n);
  else
    lvl1(x, y, n);
  y[0] *= x[3];
  return wsum(y, n);
}

/* lvl1 twice at two call sites: two regions of the same size. */
NOINLINE double twice(const double *x, double *y, int n) {
  lvl1(x, y, n);
  y[3] = sin(y[3] + x[4]);
  lvl1(x, y, n);
  return wsum(y, n);
}

/* A call in a loop keeps a tape per iteration; lvl2 still nests lvl1 and lvl0. */
NOINLINE double looped(const double *x, double *y, int n) {
  for (int k = 0; k < 3; k++) lvl2(x, y, n);
  return wsum(y, n);
}

/* Recursion: the recursive call has a block of its own, lvl0/lvl1 nest in it. */
NOINLINE void rec(const double *x, double *y, int n, int d) {
  if (d == 0) {
    lvl1(x, y, n);
    return;
  }
  lvl0(x, y, n);
  rec(x, y, n, d - 1);
  y[d % n] *= 0.5 + 0.1 * x[d % n];
}
NOINLINE double recursive(const double *x, double *y, int n) {
  rec(x, y, n, 4);
  return wsum(y, n);
}

/* Through a function pointer: separate tapes (the target is known at run time only). */
typedef void (*op_t)(const double *, double *, int);
static op_t volatile ops[3] = {lvl2, lvl3, lvl5};
static volatile int which = 0;
NOINLINE double pointer(const double *x, double *y, int n) {
  op_t f = ops[which];
  f(x, y, n);
  lvl1(x, y, n);
  return wsum(y, n);
}

static double X[N], Y0[N];
static double (*cur)(const double *, double *, int);
static double eval(void *c) {
  (void)c;
  double y[N];
  memcpy(y, Y0, sizeof y);
  return cur(X, y, N);
}

/* The gradient in (dx, dy) of `f` against finite differences in X and Y0. */
static void check_fd(const char *what, double (*f)(const double *, double *, int),
                     const double *dx, const double *dy) {
  double gx[N], gy[N];
  char buf[120];
  cur = f;
  fz_fd_grad(eval, NULL, X, N, gx);
  fz_fd_grad(eval, NULL, Y0, N, gy);
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
    check_fd(#f, f, dx, dy);                                                           \
  } while (0)

int main(void) {
  fz_seed(630);
  for (int t = 0; t < 2; t++) {
    fz_fill(X, N, 0.2, 1.1);
    if (t == 1) X[0] = -X[0]; /* the other arm of branchy */
    fz_fill(Y0, N, -0.8, 0.8);
    CHECK(depth1);
    CHECK(depth3);
    CHECK(depth6);
    CHECK(branchy);
    CHECK(twice);
    CHECK(looped);
    CHECK(recursive);
    for (int k = 0; k < 3; k++) {
      which = k;
      CHECK(pointer);
    }
    which = 0;
  }

  /* Split mode: the outermost pair allocates the block holding every nested tape. */
  fz_fill(X, N, 0.2, 1.1);
  fz_fill(Y0, N, -0.8, 0.8);
  size_t need = __enzyme_augmentsize((void *)depth6, enzyme_dup, enzyme_dup, enzyme_const);
  printf("augmentsize depth6 = %zu\n", need);
  fz_check("augmentsize holds the nested tapes", need >= 7 * 16 && need <= 4096, 1, 0);
  {
    double y[N], dx[N] = {0}, dy[N] = {0}, ax[N] = {0}, ay[N] = {0}, ya[N];
    memcpy(y, Y0, sizeof y);
    void *tape = __enzyme_augmentfwd((void *)depth6, enzyme_noret, enzyme_dup, X, dx,
                                     enzyme_dup, y, dy, enzyme_const, N);
    double yref[N];
    memcpy(yref, Y0, sizeof yref);
    depth6(X, yref, N);
    fz_check_arr("split: primal written by augmentfwd", y, yref, N, 0.0);
    __enzyme_reverse((void *)depth6, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, N,
                     2.0, tape);
    memcpy(ya, Y0, sizeof ya);
    __enzyme_autodiff((void *)depth6, enzyme_dup, X, ax, enzyme_dup, ya, ay, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      ax[i] *= 2.0;
      ay[i] *= 2.0;
    }
    fz_check_arr("split vs autodiff d/dx", dx, ax, N, 1e-13);
    fz_check_arr("split vs autodiff d/dy", dy, ay, N, 1e-13);
    for (int i = 0; i < N; i++) {
      dx[i] /= 2.0;
      dy[i] /= 2.0;
    }
    check_fd("split depth6", depth6, dx, dy);
  }
  /* The whole block copied into caller memory and back: two alive at once, LIFO. */
  {
    static unsigned char buf[2][4096];
    double xs[2][N], ys[2][N], y0s[2][N], dxs[2][N], dys[2][N];
    for (int k = 0; k < 2; k++) {
      fz_fill(xs[k], N, 0.2, 1.1);
      fz_fill(y0s[k], N, -0.8, 0.8);
      memcpy(ys[k], y0s[k], sizeof ys[k]);
      fz_zero(dxs[k], N);
      fz_zero(dys[k], N);
      __enzyme_augmentfwd_void((void *)depth6, enzyme_allocated, 4096, enzyme_tape, buf[k],
                               enzyme_dup, xs[k], dxs[k], enzyme_dup, ys[k], dys[k],
                               enzyme_const, N);
    }
    for (int k = 1; k >= 0; k--) {
      __enzyme_reverse((void *)depth6, enzyme_allocated, 4096, enzyme_tape, buf[k],
                       enzyme_dup, xs[k], dxs[k], enzyme_dup, ys[k], dys[k], enzyme_const, N,
                       1.0);
      memcpy(X, xs[k], sizeof X);
      memcpy(Y0, y0s[k], sizeof Y0);
      check_fd("allocated tape depth6", depth6, dxs[k], dys[k]);
    }
  }
  return fz_finish();
}
