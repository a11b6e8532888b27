// OPT: O0 O1 O2 O3
// A loop of three iterations whose body is a straight-line run of 256 statements: the
// body's blocks in the generated derivatives are over 4,000 instructions, so `outline.rs`
// cuts them into pieces of at most 1,000 (cg41), and the pieces are called once per
// iteration, taking the loop's phis (the carried state) as parameters and the loop
// counter's values through the input structs. Checked: the gradient with respect to the
// inputs and the in/out array against central finite differences at two points, and
// forward mode (`__enzyme_fwddiff`) against the reverse gradient along a direction
// (the dot-product identity <grad, v> = forward derivative along v).
#include <math.h>
#include <string.h>
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define STEP(i)                                               \
  a += 0.010 * sin(b * c + 0.01 * (i) + 0.1 * it);           \
  b += 0.020 * cos(c * d) * (1.0 + 0.001 * (i));             \
  c += 0.015 * a / (1.0 + d * d);                             \
  d += 0.012 * exp(-0.2 * a * a) + 0.0005 * y[(i) % 4];
#define STEP4(i) STEP(i) STEP((i) + 1) STEP((i) + 2) STEP((i) + 3)
#define STEP16(i) STEP4(i) STEP4((i) + 4) STEP4((i) + 8) STEP4((i) + 12)
#define STEP64(i) STEP16(i) STEP16((i) + 16) STEP16((i) + 32) STEP16((i) + 48)

__attribute__((noinline)) static double kernel(const double *x, double *y, int iters) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  for (int it = 0; it < iters; it++) {
    STEP64(0)
    STEP64(64)
    STEP64(128)
    STEP64(192)
    y[it % 4] += 0.1 * (a - b) * c;
  }
  return a + 2.0 * b + 3.0 * c + 4.0 * d;
}

enum { M = 4, ITERS = 3 };

static double objective(const double *x, double *y, int n) {
  double r = kernel(x, y, ITERS);
  for (int k = 0; k < n; k++) r += 0.5 * y[k] * y[k];
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
  const double vx[M] = {0.7, -0.3, 0.45, 0.2}, vy[M] = {-0.1, 0.25, 0.6, -0.8};
  for (int t = 0; t < 2; t++) {
    point p;
    memcpy(p.x, xs[t], sizeof p.x);
    memcpy(p.y0, ys[t], sizeof p.y0);
    double want_x[M], want_y[M];
    for (int j = 0; j < M; j++) {
      want_x[j] = fz_fd_ptr(eval, &p, &p.x[j]);
      want_y[j] = fz_fd_ptr(eval, &p, &p.y0[j]);
    }
    double x[M], y[M], dx[M] = {0}, dy[M] = {0};
    memcpy(x, p.x, sizeof x);
    memcpy(y, p.y0, sizeof y);
    __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, M);
    fz_check_arr("dx (finite differences)", dx, want_x, M, 1e-6);
    fz_check_arr("dy (finite differences)", dy, want_y, M, 1e-6);
    double along = 0.0;
    for (int k = 0; k < M; k++) along += dx[k] * vx[k] + dy[k] * vy[k];
    double tx[M], ty[M];
    memcpy(x, p.x, sizeof x);
    memcpy(y, p.y0, sizeof y);
    memcpy(tx, vx, sizeof tx);
    memcpy(ty, vy, sizeof ty);
    double dir = __enzyme_fwddiff((void *)objective, enzyme_dup, x, tx, enzyme_dup, y, ty,
                                  enzyme_const, M);
    fz_check("forward mode along v (reverse gradient)", dir, along, 1e-9);
  }
  return fz_finish();
}
