// OPT: O0 O2
// The bit-level initial guess scientists copy from graphics code: the fast inverse
// square root (float bits shifted and subtracted from a magic constant, through memcpy
// and through a union) refined by Newton steps, and a double version (0x5fe6eb50c7b537a9).
// The guess is piecewise constant in x (its derivative is 0), so the derivative of the
// whole is that of the Newton steps with the guess held fixed: a simple formula we write
// by hand, and which central differences see too (the guess does not move for a 1e-6
// step away from a power of two). Also a normalisation of 3-vectors by that routine.
// Oracles: the hand-written chain rule, central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

static float guess_f(float x) {
  uint32_t i;
  memcpy(&i, &x, sizeof i);
  i = 0x5f3759dfu - (i >> 1);
  float y;
  memcpy(&y, &i, sizeof y);
  return y;
}

float rsqrt_f(float x) {
  float y = guess_f(x);
  for (int k = 0; k < 3; k++) y = y * (1.5f - 0.5f * x * y * y);
  return y;
}

static double guess_d(double x) {
  union { double d; uint64_t u; } b = {x};
  b.u = 0x5fe6eb50c7b537a9ull - (b.u >> 1);
  return b.d;
}

double rsqrt_d(double x) {
  double y = guess_d(x);
  for (int k = 0; k < 4; k++) y = y * (1.5 - 0.5 * x * y * y);
  return y;
}

/* the chain rule with the guess held constant: y' = y'(1.5 - 1.5 x y^2) - 0.5 y^3 */
static double rsqrt_deriv_by_hand(double x, double y0, int steps) {
  double y = y0, dy = 0;
  for (int k = 0; k < steps; k++) {
    double ny = y * (1.5 - 0.5 * x * y * y);
    dy = dy * (1.5 - 1.5 * x * y * y) - 0.5 * y * y * y;
    y = ny;
  }
  return dy;
}

/* sum of normalised components of a set of 3-vectors, weighted */
double normalised_sum(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = v + 3 * i;
    double r = rsqrt_d(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    s += (i + 1) * (p[0] * r + 2 * p[1] * r - p[2] * r);
  }
  return s;
}

typedef struct { double v[12]; } vctx;
static double ev(void *p) { return normalised_sum(((vctx *)p)->v, 4); }
static double rd(double x) { return rsqrt_d(x); }

int main(void) {
  const double xs[4] = {0.37, 1.9, 5.3, 123.4};
  for (int t = 0; t < 4; t++) {
    double x = xs[t], dx = __enzyme_autodiff((void *)rsqrt_d, x);
    char what[64];
    snprintf(what, sizeof what, "double rsqrt'(%g) by hand", x);
    fz_check(what, dx, rsqrt_deriv_by_hand(x, guess_d(x), 4), 1e-12);
    snprintf(what, sizeof what, "double rsqrt'(%g) vs FD", x);
    fz_check(what, dx, fz_fd1(rd, x), 1e-6);
    snprintf(what, sizeof what, "double rsqrt'(%g) vs -x^-1.5/2", x);
    fz_check(what, dx, -0.5 / (x * sqrt(x)), 1e-9);
    snprintf(what, sizeof what, "double rsqrt'(%g) forward", x);
    fz_check(what, __enzyme_fwddiff((void *)rsqrt_d, x, 1.0), dx, 1e-13);
    float xf = (float)x, dxf = __enzyme_autodiff_f((void *)rsqrt_f, xf);
    snprintf(what, sizeof what, "float rsqrt'(%g) by hand", x);
    fz_check(what, dxf, rsqrt_deriv_by_hand(xf, guess_f(xf), 3), 1e-5);
  }
  vctx c = {{0.3, -1.2, 0.8, 2.0, 0.1, -0.4, -0.7, 0.75, 1.6, 0.05, 0.9, -0.33}};
  double g[12] = {0}, fd[12];
  __enzyme_autodiff((void *)normalised_sum, enzyme_dup, c.v, g, enzyme_const, 4);
  fz_fd_grad(ev, &c, c.v, 12, fd);
  fz_check_arr("normalised sum vs FD", g, fd, 12, 1e-6);
  /* normalised vectors: the gradient of p.w/|p| is orthogonal to p */
  for (int i = 0; i < 4; i++) {
    double *p = c.v + 3 * i, *q = g + 3 * i;
    char what[48];
    snprintf(what, sizeof what, "gradient orthogonal to vector %d", i);
    fz_check(what, (p[0] * q[0] + p[1] * q[1] + p[2] * q[2]) / (i + 1), 0.0, 1e-9);
  }
  return fz_finish();
}
