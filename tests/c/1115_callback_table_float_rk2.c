// OPT: O0 O1 O2 O3
// A small ODE library as users write it: a struct of callbacks (right-hand side, a
// post-step projection, a norm), static implementations chosen at run time from a table,
// single-precision state integrated with a midpoint scheme while a double parameter
// block drives it, and a typed float hook. Oracle: five-point differences in float and
// the forward/reverse dot-product identity.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern float __enzyme_fwddiff_f(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

typedef struct {
  void (*rhs)(const float *y, float *dy, const double *p);
  void (*project)(float *y);
  float (*norm)(const float *y);
} ode_ops;

static void rhs_pend(const float *y, float *dy, const double *p) {
  dy[0] = y[1];
  dy[1] = (float)(-p[0] * sinf(y[0]) - p[1] * y[1]);
}
static void rhs_vdp(const float *y, float *dy, const double *p) {
  dy[0] = y[1];
  dy[1] = (float)(p[0] * (1 - y[0] * y[0]) * y[1] - p[1] * y[0]);
}
static void clamp_angle(float *y) {
  if (y[0] > 3.14159265f) y[0] -= 6.2831853f;
}
static void no_projection(float *y) { (void)y; }
static float energy(const float *y) { return 0.5f * y[1] * y[1] + 1.0f - cosf(y[0]); }
static float sq(const float *y) { return y[0] * y[0] + y[1] * y[1]; }

static const ode_ops table[2] = {{rhs_pend, clamp_angle, energy}, {rhs_vdp, no_projection, sq}};

float integrate(float *y, const double *p, int which, int steps) {
  const ode_ops *ops = &table[which];
  float h = 0.02f, k[2], mid[2];
  for (int s = 0; s < steps; s++) {
    ops->rhs(y, k, p);
    for (int i = 0; i < 2; i++) mid[i] = y[i] + 0.5f * h * k[i];
    ops->rhs(mid, k, p);
    for (int i = 0; i < 2; i++) y[i] += h * k[i];
    ops->project(y);
  }
  return ops->norm(y);
}

typedef struct {
  float y[2];
  double p[2];
  int which;
} ctx_t;
static float evalf(void *c) {
  ctx_t *x = c;
  float y[2] = {x->y[0], x->y[1]};
  return integrate(y, x->p, x->which, 40);
}
static double evald(void *c) { return evalf(c); }

int main(void) {
  for (int which = 0; which < 2; which++) {
    ctx_t c = {{0.6f, -0.2f}, {1.3, 0.15}, which};
    float y[2] = {c.y[0], c.y[1]}, dy[2] = {0, 0};
    double dp[2] = {0, 0};
    __enzyme_autodiff_f((void *)integrate, enzyme_dup, y, dy, enzyme_dup, c.p, dp, enzyme_const,
                        which, enzyme_const, 40);
    char b[48];
    for (int i = 0; i < 2; i++) {
      snprintf(b, sizeof b, "ops %d: d/dy0[%d] (float)", which, i);
      fz_check(b, dy[i], fz_fd_ptrf(evalf, &c, &c.y[i]), 2e-3);
      snprintf(b, sizeof b, "ops %d: d/dp[%d]", which, i);
      fz_check(b, dp[i], fz_fd5_ptr(evald, &c, &c.p[i]), 2e-3);
    }
    float y2[2] = {c.y[0], c.y[1]}, ty[2] = {1.0f, -0.5f};
    double tp[2] = {0.3, -0.7};
    float t = __enzyme_fwddiff_f((void *)integrate, enzyme_dup, y2, ty, enzyme_dup, c.p, tp,
                                 enzyme_const, which, enzyme_const, 40);
    double dot = dy[0] * 1.0 + dy[1] * -0.5 + dp[0] * 0.3 + dp[1] * -0.7;
    snprintf(b, sizeof b, "ops %d: forward = <grad, v>", which);
    fz_check(b, t, dot, 1e-4);
  }
  return fz_finish();
}
