// OPT: O0 O1 O2 O3
// A straight-line kernel of 512 statements whose generated reverse and tangent blocks
// are well over 4,000 instructions, so `outline.rs` cuts each run into pieces of at most
// 1,000 (cg41: five or more pieces per run at O1-O3). Values cross many piece
// boundaries: the four inputs and `w[]` (written by the first statements, read again by
// the last ones and by `y[]`) are used from the first piece to the last, and the kernel
// mixes division, `sqrt`, `exp` and `log` with stores through `y`. Checked: the reverse
// gradient with respect to `x` and `y` against central finite differences, at two
// points, twice each; forward mode (`__enzyme_fwddiff`, tangent code cut the same way)
// against the same finite differences along a direction (the dot-product identity
// <grad, v> = d/dt f(x + t v)).
#include <math.h>
#include <string.h>
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define STEP(i)                                              \
  a += 0.010 * exp(-0.1 * b * c) + 0.001 * w[(i) % 8];      \
  b += 0.020 * sqrt(1.0 + c * c) - 0.002 * a / (2.0 + d * d); \
  c += 0.015 * log(1.5 + a * a) * w[((i) + 3) % 8];           \
  d += 0.012 * a * b / (1.0 + c * c);                         \
  w[(i) % 8] = 0.5 * w[(i) % 8] + 0.1 * d;
#define STEP4(i) STEP(i) STEP((i) + 1) STEP((i) + 2) STEP((i) + 3)
#define STEP16(i) STEP4(i) STEP4((i) + 4) STEP4((i) + 8) STEP4((i) + 12)
#define STEP64(i) STEP16(i) STEP16((i) + 16) STEP16((i) + 32) STEP16((i) + 48)

__attribute__((noinline)) static double kernel(const double *x, double *y) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  double w[8];
  for (int k = 0; k < 8; k++) w[k] = 0.1 * (k + 1) * x[k % 4];
  STEP64(0)
  STEP64(64)
  y[0] += 0.5 * (a - c) * w[1];
  y[1] += 0.25 * b * d;
  y[2] *= 1.0 + 0.1 * w[7];
  y[3] -= 0.3 * w[0] * x[1];
  return a + 2.0 * b + 3.0 * c + 4.0 * d + w[3];
}

enum { M = 4 };

static double objective(const double *x, double *y, int n) {
  double r = kernel(x, y);
  for (int k = 0; k < n; k++) r += y[k] * y[k];
  return r;
}

typedef struct {
  double x[M], y0[M], v[M];
  double t;
} point;

static double eval(void *ctx) {
  point *p = ctx;
  double y[M];
  memcpy(y, p->y0, sizeof y);
  return objective(p->x, y, M);
}

// objective(x + t v, y0): its derivative in t at t = 0 is the directional derivative.
static double eval_along(void *ctx) {
  point *p = ctx;
  double x[M], y[M];
  for (int k = 0; k < M; k++) x[k] = p->x[k] + p->t * p->v[k];
  memcpy(y, p->y0, sizeof y);
  return objective(x, y, M);
}

int main(void) {
  const double xs[2][M] = {{0.31, 0.62, 0.17, 0.88}, {-0.4, 0.9, 0.55, -0.2}};
  const double ys[2][M] = {{0.2, -0.1, 0.4, 0.05}, {1.0, 0.3, -0.7, 0.0}};
  const double vs[M] = {0.7, -0.3, 0.45, 0.2};
  for (int t = 0; t < 2; t++) {
    point p;
    memcpy(p.x, xs[t], sizeof p.x);
    memcpy(p.y0, ys[t], sizeof p.y0);
    memcpy(p.v, vs, sizeof p.v);
    p.t = 0.0;
    double want_x[M], want_y[M];
    for (int j = 0; j < M; j++) {
      want_x[j] = fz_fd_ptr(eval, &p, &p.x[j]);
      want_y[j] = fz_fd_ptr(eval, &p, &p.y0[j]);
    }
    double want_dir = fz_fd_ptr(eval_along, &p, &p.t);
    for (int rep = 0; rep < 2; rep++) {
      double x[M], y[M], dx[M] = {0}, dy[M] = {0};
      memcpy(x, p.x, sizeof x);
      memcpy(y, p.y0, sizeof y);
      __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, M);
      fz_check_arr("dx (finite differences)", dx, want_x, M, 1e-6);
      fz_check_arr("dy (finite differences)", dy, want_y, M, 1e-6);
    }
    double x[M], y[M], dx[M], dy[M] = {0};
    memcpy(x, p.x, sizeof x);
    memcpy(y, p.y0, sizeof y);
    memcpy(dx, vs, sizeof dx);
    double dir = __enzyme_fwddiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                  enzyme_const, M);
    fz_check("forward mode along v (finite differences)", dir, want_dir, 1e-6);
  }
  return fz_finish();
}
