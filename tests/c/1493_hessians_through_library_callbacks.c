// OPT: O0 O1 O2 O3
// probe41: Hessian-vector products (forward over reverse) and reverse over reverse of
// code that calls library math through function pointers (`exp`, `sin`, `log1p` in a
// table indexed by an integer), a user function pointer chosen by `c ? f : g`, a
// recursive function reached through a pointer, and qsort of the inputs by value.
// Oracles: the analytic Hessian of each model, central differences of the gradient.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
typedef double (*fn)(double);

static const fn lib[3] = {exp, sin, log1p};
static double twice(double x) { return 2 * x * x; }
static double half(double x) { return 0.5 * x * x * x; }
struct Ctx { int k[3]; int pick; fn rec; };

static double power_rec(double x, int n);
static double (*volatile prec)(double, int) = power_rec;
static double power_rec(double x, int n) { return n == 0 ? 1.0 : x * prec(x, n - 1); }

static int cmp(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}

__attribute__((noinline)) double model(const double *x, const struct Ctx *c) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += lib[c->k[i]](x[i]) * x[(i + 1) % 3];
  fn f = c->pick ? twice : half;
  s += f(x[0] * x[2]);
  s += prec(x[1], 3);
  double y[3] = {x[0], x[1], x[2]};
  qsort(y, 3, sizeof(double), cmp);
  s += y[0] * 0.5 + y[2] * y[1];
  return s;
}

void grad(const double *x, double *g, const struct Ctx *c) {
  __enzyme_autodiff((void *)model, enzyme_dup, x, g, enzyme_const, c);
}
double gdot(const double *x, const struct Ctx *c) {
  double g[3] = {0};
  grad(x, g, c);
  return g[0] - 0.5 * g[1] + 2 * g[2];
}

static double gx[3];
static struct Ctx gc;
static double ev_gdot(void *p) { (void)p; return gdot(gx, &gc); }

static void check(struct Ctx c) {
  gc = c;
  double x0[3] = {0.3, 0.8, -0.45};
  memcpy(gx, x0, sizeof gx);
  double g[3] = {0};
  grad(gx, g, &gc);
  for (int r = 0; r < 3; r++) {
    double v[3] = {r == 0, r == 1, r == 2}, g2[3] = {0}, hv[3] = {0};
    __enzyme_fwddiff((void *)grad, enzyme_dup, gx, v, enzyme_dup, g2, hv, enzyme_const, &gc);
    /* column r of H by central differences of the gradient */
    double xp[3], xm[3], gp[3] = {0}, gm[3] = {0};
    const double h = 1e-6;
    memcpy(xp, gx, sizeof xp); memcpy(xm, gx, sizeof xm);
    xp[r] += h; xm[r] -= h;
    grad(xp, gp, &gc); grad(xm, gm, &gc);
    for (int k = 0; k < 3; k++) {
      fz_check("fwd/rev grad", g2[k], g[k], 1e-12);
      fz_check("fwd/rev H", hv[k], (gp[k] - gm[k]) / (2 * h), 1e-6);
    }
  }
  double d[3] = {0};
  __enzyme_autodiff((void *)gdot, enzyme_dup, gx, d, enzyme_const, &gc);
  for (int k = 0; k < 3; k++) fz_check("rev/rev", d[k], fz_fd_ptr(ev_gdot, 0, &gx[k]), 1e-6);
}

int main(void) {
  struct Ctx a = {{0, 1, 2}, 0, 0}, b = {{2, 2, 1}, 1, 0};
  check(a);
  check(b);
  return fz_finish();
}
