// OPT: O0 O2
// Calls: noinline helpers, static helpers, a helper writing outputs through
// pointers, a call chain several levels deep, and a helper called in a loop.
#include "fz_test.h"

__attribute__((noinline)) double sq(double x) { return x * x; }
static double cube_s(double x) { return x * sq(x); }
__attribute__((noinline)) static double lvl3(double x) { return sin(x) * cube_s(x); }
__attribute__((noinline)) double lvl2(double x, double y) { return lvl3(x) + y * lvl3(y); }
__attribute__((noinline)) double lvl1(double x, double y) { return lvl2(x * y, y) * 2.0; }

__attribute__((noinline)) void polar(double r, double t, double *px, double *py) {
  *px = r * cos(t);
  *py = r * sin(t);
}

double use_polar(double r, double t) {
  double a, b;
  polar(r, t, &a, &b);
  return a * a * b + b;
}

double loop_calls(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += sq(x[i]) * cube_s(x[i]) + lvl3(x[i]);
  return s;
}

/* oracle: l3(x) = sin(x) x^3 (= lvl3), L3 = d l3 / dx */
static double l3(double x) { return sin(x) * x * x * x; }
static double L3(double x) { return cos(x) * x * x * x + 3.0 * sin(x) * x * x; }

static double er, et;
static double polar_ctx(void *c) { (void)c; return use_polar(er, et); }

#define N 10

int main(void) {
  fz_seed(38);
  for (int t = 0; t < 3; t++) {
    double x = fz_uniform(-1, 1), y = fz_uniform(-1, 1);
    fz_grad2 g = __enzyme_autodiff2((void *)lvl1, x, y);
    /* lvl1 = 2 (l3(xy) + y l3(y)) */
    fz_check("dlvl1/dx", g.d0, 2.0 * L3(x * y) * y, 1e-10);
    fz_check("dlvl1/dy", g.d1, 2.0 * (L3(x * y) * x + l3(y) + y * L3(y)), 1e-10);
    er = fz_uniform(0.5, 2);
    et = fz_uniform(-3, 3);
    g = __enzyme_autodiff2((void *)use_polar, er, et);
    fz_check("duse_polar/dr fd", g.d0, fz_fd_ptr(polar_ctx, 0, &er), 1e-6);
    fz_check("duse_polar/dt fd", g.d1, fz_fd_ptr(polar_ctx, 0, &et), 1e-6);
    /* a^2 b + b = r^3 cos^2 sin + r sin */
    double r = er, th = et, c = cos(th), s = sin(th);
    fz_check("duse_polar/dr", g.d0, 3 * r * r * c * c * s + s, 1e-10);
    fz_check("duse_polar/dt", g.d1, r * r * r * (c * c * c - 2 * c * s * s) + r * c, 1e-10);
  }
  double x[N], dx[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loop_calls, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 5.0 * pow(x[i], 4) + L3(x[i]);
  fz_check_arr("dloop_calls", dx, want, N, 1e-10);
  return fz_finish();
}
