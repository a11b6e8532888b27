// OPT: O0 O2
// enz37: the libm functions that split or rescale a double, with active arguments, in one
// loop: frexp (mantissa in [0.5, 1), derivative 2^-e), ldexp of the mantissa back with a
// shifted exponent (2 x y), modf of 3 x (fraction: derivative 3; the integer part,
// also used, has none), remainder(x, y) (d/dx 1, d/dy -nearest(x/y)), fmod(x, y) (d/dx 1,
// d/dy -trunc(x/y)), remquo times the quotient bits it writes, lgamma_r times its sign
// and lgamma times signgam, at points where Gamma is negative (at -O0 the int each of
// frexp, remquo and lgamma_r writes is a stack slot reloaded per iteration, and signgam
// a global at every level: the reverse sweep re-read the last iteration's value, a
// silently wrong gradient before enz37), and float versions frexpf/fmodf
// in a float function (its active float argument returned by the hook). Points are kept away from the
// jumps. Oracles: analytic per term, central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int e;
    double m = frexp(x[i] * y[i], &e);
    double back = ldexp(m, e + 1);
    double ip;
    double fr = modf(3 * x[i], &ip);
    double r = remainder(x[i], y[i]);
    double q = fmod(x[i] * x[i], y[i]);
    int quo;
    double rq = remquo(x[i], y[i], &quo);
    s += m * e + back + fr * (1 + 0.1 * ip) + r * r + q + rq * quo;
  }
  return s;
}

static double grad_x(double x, double y, double *gy) {
  int e;
  double m = frexp(x * y, &e);
  double dm = ldexp(1.0, -e); /* d m / d(xy) */
  double ip;
  modf(3 * x, &ip);
  double r = remainder(x, y);
  double nq = (x - r) / y; /* nearest integer to x / y */
  double tq = trunc(x * x / y);
  int quo;
  remquo(x, y, &quo);
  double gx = dm * y * e + 2 * y + 3 * (1 + 0.1 * ip) + 2 * r + 2 * x + quo;
  *gy = dm * x * e + 2 * x + 2 * r * (-nq) - tq - nq * quo;
  return gx;
}

/* Float versions: frexpf's mantissa (derivative 2^-e) and fmodf (derivative 1) of a
   float-converted argument, returned as a float. */
float ff(const float *x, float y) {
  int e;
  float m = frexpf(x[0] * y, &e);
  return m * m + fmodf(x[1] * y, 0.75f) * x[1];
}
extern float __enzyme_autodiff_f(void *, ...) __asm__("__enzyme_autodiff");

/* lgamma_r's sign through its int pointer, reloaded each iteration at -O0. */
double lg(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int sg;
    double l = lgamma_r(x[i], &sg);
    s += l * sg;
  }
  return s;
}
static double eval_lg(void *p) {
  return lg((double *)p, 6);
}
/* lgamma's sign in the C library's signgam, read back after each call. */
double lgs(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += lgamma(x[i]) * signgam;
  return s;
}
static double eval_lgs(void *p) {
  return lgs((double *)p, 6);
}

struct ctx { double *x, *y; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  return f(c->x, c->y, c->n);
}

int main(void) {
  enum { N = 6 };
  double x[N] = {0.3, -1.7, 2.45, 5.1, -3.5, 0.9};
  double y[N] = {1.1, 0.65, -1.3, 1.55, 2.2, -0.8};
  double dx[N], dy[N], wx[N], wy[N], gx[N], gy[N];
  for (int i = 0; i < N; i++) wx[i] = grad_x(x[i], y[i], &wy[i]);
  struct ctx c = {x, y, N};
  fz_fd_grad(eval, &c, x, N, gx);
  fz_fd_grad(eval, &c, y, N, gy);
  fz_check_arr("analytic d/dx vs central differences", wx, gx, N, 1e-5);
  fz_check_arr("analytic d/dy vs central differences", wy, gy, N, 1e-5);
  fz_zero(dx, N);
  fz_zero(dy, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  fz_check_arr("reverse d/dx", dx, wx, N, 1e-10);
  fz_check_arr("reverse d/dy", dy, wy, N, 1e-10);
  double vx[N], vy[N], want = 0;
  fz_seed(1419);
  fz_fill(vx, N, -1, 1);
  fz_fill(vy, N, -1, 1);
  for (int i = 0; i < N; i++) want += wx[i] * vx[i] + wy[i] * vy[i];
  double jv = __enzyme_fwddiff((void *)f, enzyme_dup, x, vx, enzyme_dup, y, vy, enzyme_const, N);
  fz_check("forward <grad, v>", jv, want, 1e-10);

  double lx[6] = {0.3, -0.4, 2.45, -2.5, -3.5, 0.9}, ldx[6], lfd[6];
  fz_fd_grad(eval_lg, lx, lx, 6, lfd);
  fz_zero(ldx, 6);
  __enzyme_autodiff((void *)lg, enzyme_dup, lx, ldx, enzyme_const, 6);
  fz_check_arr("lgamma_r times its sign: reverse vs central differences", ldx, lfd, 6, 1e-6);
  double lv = 0;
  for (int i = 0; i < 6; i++) lv += ldx[i] * vx[i];
  fz_check("lgamma_r: forward = reverse",
           __enzyme_fwddiff((void *)lg, enzyme_dup, lx, vx, enzyme_const, 6), lv, 1e-10);
  fz_fd_grad(eval_lgs, lx, lx, 6, lfd);
  fz_zero(ldx, 6);
  __enzyme_autodiff((void *)lgs, enzyme_dup, lx, ldx, enzyme_const, 6);
  fz_check_arr("lgamma times signgam: reverse vs central differences", ldx, lfd, 6, 1e-6);
  lv = 0;
  for (int i = 0; i < 6; i++) lv += ldx[i] * vx[i];
  fz_check("lgamma times signgam: forward = reverse",
           __enzyme_fwddiff((void *)lgs, enzyme_dup, lx, vx, enzyme_const, 6), lv, 1e-10);

  float fx[2] = {1.3f, 0.55f}, fdx[2] = {0, 0}, fy = 1.7f;
  int e;
  float m = frexpf(fx[0] * fy, &e);
  double dm = ldexp(1.0, -e);
  float dfy = __enzyme_autodiff_f((void *)ff, enzyme_dup, fx, fdx, fy);
  double q = fmodf(fx[1] * fy, 0.75f);
  fz_check("float reverse d/dx0", fdx[0], 2 * m * dm * fy, 1e-6);
  fz_check("float reverse d/dx1", fdx[1], fy * fx[1] + q, 1e-6);
  fz_check("float reverse d/dy", dfy, 2 * m * dm * fx[0] + fx[1] * fx[1], 1e-6);
  return fz_finish();
}
