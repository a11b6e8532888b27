// OPT: O0 O1 O2 O3
// A straight-line kernel of 600 `t += c * sin(p * q + k)` statements (bench/compile_scaling's
// `big` pattern): its merged gradient's reverse block is over 4,000 instructions, so
// `outline.rs` cuts it into pieces before code generation (O1-O3), and each piece's
// `llvm.cos(p * q + k)` is placed beside the forward sweep's `sin` of the same argument
// in the host (`outline/trig_beside_host.rs`, perf26). Gradients with respect to the four
// inputs and the output array against central finite differences of the same kernel,
// for two input points, twice each (the second call with shadows accumulated from zero
// again).
#include <math.h>
#include <string.h>
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);

#define STEP(i)                          \
  a += 0.010 * sin(b * c + 0.01 * (i)); \
  b += 0.020 * sin(c * d + 0.02 * (i)); \
  c += 0.015 * sin(d * a + 0.03 * (i)); \
  d += 0.012 * sin(a * b + 0.04 * (i));
#define STEP4(i) STEP(i) STEP((i) + 1) STEP((i) + 2) STEP((i) + 3)
#define STEP16(i) STEP4(i) STEP4((i) + 4) STEP4((i) + 8) STEP4((i) + 12)
#define STEP64(i) STEP16(i) STEP16((i) + 16) STEP16((i) + 32) STEP16((i) + 48)

__attribute__((noinline)) static double kernel(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP64(0)
  STEP64(64)
  STEP16(128)
  STEP4(144)
  STEP(148)
  STEP(149)
  y[0] += 0.5 * (a - c);
  y[1] += 0.25 * b * d;
  return a + 2.0 * b + 3.0 * c + 4.0 * d;
}

enum { M = 4 };

static double objective(const double *x, double *y, int n) {
  double r = kernel(x, y);
  for (int k = 0; k < n; k++) r += y[k];
  return r;
}

typedef struct {
  double x[M], y0[M];
} point;

static double eval(void *ctx) {
  point *p = ctx;
  double y[M];
  memcpy(y, p->y0, sizeof y);
  return objective(p->x, y, M);
}

int main(void) {
  const double xs[2][M] = {{0.31, 0.62, 0.17, 0.88}, {-0.4, 0.9, 0.55, -0.2}};
  const double ys[2][M] = {{0.2, -0.1, 0.4, 0.05}, {1.0, 0.3, -0.7, 0.0}};
  for (int t = 0; t < 2; t++) {
    point p;
    memcpy(p.x, xs[t], sizeof p.x);
    memcpy(p.y0, ys[t], sizeof p.y0);
    double want_x[M], want_y[M];
    for (int j = 0; j < M; j++) {
      want_x[j] = fz_fd_ptr(eval, &p, &p.x[j]);
      want_y[j] = fz_fd_ptr(eval, &p, &p.y0[j]);
    }
    for (int rep = 0; rep < 2; rep++) {
      double x[M], y[M], dx[M] = {0}, dy[M] = {0};
      memcpy(x, p.x, sizeof x);
      memcpy(y, p.y0, sizeof y);
      __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, M);
      fz_check_arr("dx (finite differences)", dx, want_x, M, 1e-6);
      fz_check_arr("dy (finite differences)", dy, want_y, M, 1e-6);
    }
  }
  return fz_finish();
}
