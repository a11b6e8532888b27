// OPT: O0 O1 O2 O3
// The drain's settling of nested tapes' regions (reverse/tape_region.rs, issue 18): which
// nested pairs claim region room, which single claim keeps its stack's own reservation,
// and which owners' regions go, decided callees first (tape_nest::callees_first) in one
// round per drain instead of one per nesting level. Deep chains (24 levels, called
// from differentiated functions that are not the chain's head, so every level is a
// nested pair) in each of the settling's cases: a counted loop at every other level
// (many claims, the region kept); a counted loop at the deepest level only (a single
// claim under the owner, found down a path of 23 claim-free levels: its own
// reservation); no loop anywhere (the owner's region removed); a diamond over a deep
// chain with one loop (the loop's pair reached twice from one owner: its claim kept);
// and the same chains under two owners at once. Every function overwrites y in place, so
// every level's reverse needs its tape. Oracle: central finite differences of the primal.
#include "fz_test.h"

#define N 8
#define NOINLINE __attribute__((noinline))

typedef void lvl_fn(const double *x, double *y, int n);

/* One level of a chain: calls the level below, then a step with or without a loop. */
#define LOOPED(name, below, k)                                                          \
  NOINLINE void name(const double *x, double *y, int n) {                              \
    below(x, y, n);                                                                     \
    for (int i = 0; i < n; i++) y[i] = sin(y[i]) * x[(i + k) % n] + 0.25 * y[i];       \
  }
#define PLAIN(name, below, k)                                                           \
  NOINLINE void name(const double *x, double *y, int n) {                              \
    below(x, y, n);                                                                     \
    y[k % n] = y[k % n] * cos(x[k % n] + 0.1 * y[(k + 1) % n]);                         \
  }

/* a: a loop at every other level (many claims). */
NOINLINE void a0(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = y[i] * y[i] * x[i] + 0.5 * y[i];
}
PLAIN(a1, a0, 1) LOOPED(a2, a1, 2) PLAIN(a3, a2, 3) LOOPED(a4, a3, 4) PLAIN(a5, a4, 5)
LOOPED(a6, a5, 6) PLAIN(a7, a6, 7) LOOPED(a8, a7, 8) PLAIN(a9, a8, 9) LOOPED(a10, a9, 10)
PLAIN(a11, a10, 11) LOOPED(a12, a11, 12) PLAIN(a13, a12, 13) LOOPED(a14, a13, 14)
PLAIN(a15, a14, 15) LOOPED(a16, a15, 16) PLAIN(a17, a16, 17) LOOPED(a18, a17, 18)
PLAIN(a19, a18, 19) LOOPED(a20, a19, 20) PLAIN(a21, a20, 21) LOOPED(a22, a21, 22)
PLAIN(a23, a22, 23)

/* b: a loop at the deepest level only (a single claim, 23 levels down). */
NOINLINE void b0(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = exp(-0.5 * y[i] * y[i]) * x[i] + y[i];
}
PLAIN(b1, b0, 1) PLAIN(b2, b1, 2) PLAIN(b3, b2, 3) PLAIN(b4, b3, 4) PLAIN(b5, b4, 5)
PLAIN(b6, b5, 6) PLAIN(b7, b6, 7) PLAIN(b8, b7, 8) PLAIN(b9, b8, 9) PLAIN(b10, b9, 10)
PLAIN(b11, b10, 11) PLAIN(b12, b11, 12) PLAIN(b13, b12, 13) PLAIN(b14, b13, 14)
PLAIN(b15, b14, 15) PLAIN(b16, b15, 16) PLAIN(b17, b16, 17) PLAIN(b18, b17, 18)
PLAIN(b19, b18, 19) PLAIN(b20, b19, 20) PLAIN(b21, b20, 21) PLAIN(b22, b21, 22)
PLAIN(b23, b22, 23)

/* c: no loop at all (nothing claims: the owner's region goes). */
NOINLINE void c0(const double *x, double *y, int n) { y[0] = y[0] * x[0] + sin(y[n - 1]); }
PLAIN(c1, c0, 1) PLAIN(c2, c1, 2) PLAIN(c3, c2, 3) PLAIN(c4, c3, 4) PLAIN(c5, c4, 5)
PLAIN(c6, c5, 6) PLAIN(c7, c6, 7) PLAIN(c8, c7, 8) PLAIN(c9, c8, 9) PLAIN(c10, c9, 10)
PLAIN(c11, c10, 11) PLAIN(c12, c11, 12) PLAIN(c13, c12, 13) PLAIN(c14, c13, 14)
PLAIN(c15, c14, 15) PLAIN(c16, c15, 16) PLAIN(c17, c16, 17) PLAIN(c18, c17, 18)
PLAIN(c19, c18, 19) PLAIN(c20, c19, 20) PLAIN(c21, c20, 21) PLAIN(c22, c21, 22)
PLAIN(c23, c22, 23)

/* d: a diamond whose both arms reach b's single loop (two claims under one owner). */
NOINLINE void d_left(const double *x, double *y, int n) {
  b12(x, y, n);
  y[2] = y[2] * x[3] + 0.1;
}
NOINLINE void d_right(const double *x, double *y, int n) {
  b12(x, y, n);
  y[5] = tanh(y[5]) + x[1] * y[4];
}
NOINLINE void d_top(const double *x, double *y, int n) {
  d_left(x, y, n);
  d_right(x, y, n);
}

static double wsum(const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (0.5 + 0.1 * i) * y[i];
  return s;
}

NOINLINE double many(const double *x, double *y, int n) {
  a23(x, y, n);
  return wsum(y, n);
}
NOINLINE double single(const double *x, double *y, int n) {
  b23(x, y, n);
  return wsum(y, n);
}
NOINLINE double none(const double *x, double *y, int n) {
  c23(x, y, n);
  return wsum(y, n);
}
NOINLINE double diamond(const double *x, double *y, int n) {
  d_top(x, y, n);
  return wsum(y, n);
}
/* Two owners in one drain: b's chain under each, and a's beside it in one of them. */
NOINLINE double both(const double *x, double *y, int n) {
  b23(x, y, n);
  a23(x, y, n);
  c23(x, y, n);
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

#define CHECK(f)                                                                       \
  do {                                                                                 \
    double y[N], dx[N] = {0}, dy[N] = {0}, gx[N], gy[N];                               \
    memcpy(y, Y0, sizeof y);                                                           \
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_dup, y, dy, enzyme_const, N); \
    cur = f;                                                                           \
    fz_fd_grad(eval, NULL, X, N, gx);                                                  \
    fz_fd_grad(eval, NULL, Y0, N, gy);                                                 \
    fz_check_arr(#f " d/dx", dx, gx, N, 1e-6);                                         \
    fz_check_arr(#f " d/dy", dy, gy, N, 1e-6);                                         \
  } while (0)

int main(void) {
  fz_seed(1385);
  for (int t = 0; t < 2; t++) {
    fz_fill(X, N, 0.2, 0.9);
    fz_fill(Y0, N, -0.6, 0.6);
    CHECK(many);
    CHECK(single);
    CHECK(none);
    CHECK(diamond);
    CHECK(both);
  }
  return fz_finish();
}
