// OPT: O0 O1 O2 O3
// A user's ODE library in C: the right-hand side is a callback `void (*rhs)(double t,
// const double *y, double *dy, void *ctx)` with a `void *` context holding the active
// parameters, the stepper is picked from a table of function pointers in a struct
// (`{name, order, step}`), an adaptive step-size controller whose accept/reject
// decisions depend on active values, a work buffer from `calloc` freed at the end, and a
// global statistics struct updated inside the differentiated function. Differentiated
// with respect to the parameters (through the context) and the initial state. Oracles:
// central finite differences of the primal (same step decisions on both sides), forward
// mode against reverse (dot product).
#include "fz_test.h"

extern void __enzyme_autodiff_v(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define NY 3
typedef void (*rhs_fn)(double t, const double *y, double *dy, void *ctx);
typedef void (*step_fn)(rhs_fn f, double t, double h, const double *y, double *out,
                        double *work, void *ctx);
typedef struct { const char *name; int order; step_fn step; } method;
typedef struct { double k1, k2, k3; int kind; } params;
struct { long steps, rejects; } g_stats;

static void lotka(double t, const double *y, double *dy, void *ctx) {
  const params *p = ctx;
  (void)t;
  dy[0] = p->k1 * y[0] - 0.5 * y[0] * y[1];
  dy[1] = -p->k2 * y[1] + 0.3 * y[0] * y[1] - 0.1 * y[2];
  dy[2] = p->k3 * (y[0] - y[2]) * (p->kind ? 1.0 : 0.5);
}

static void euler_step(rhs_fn f, double t, double h, const double *y, double *out, double *w,
                       void *ctx) {
  f(t, y, w, ctx);
  for (int i = 0; i < NY; i++) out[i] = y[i] + h * w[i];
}

static void heun_step(rhs_fn f, double t, double h, const double *y, double *out, double *w,
                      void *ctx) {
  double *k1 = w, *k2 = w + NY, *tmp = w + 2 * NY;
  f(t, y, k1, ctx);
  for (int i = 0; i < NY; i++) tmp[i] = y[i] + h * k1[i];
  f(t + h, tmp, k2, ctx);
  for (int i = 0; i < NY; i++) out[i] = y[i] + 0.5 * h * (k1[i] + k2[i]);
}

static const method methods[2] = {{"euler", 1, euler_step}, {"heun", 2, heun_step}};

/* integrates to T with an embedded euler/heun error estimate; returns the final energy */
void solve(const double *y0, double *yT, params *p, double T) {
  double *w = calloc(4 * NY, sizeof(double));
  double y[NY], lo[NY], hi[NY];
  for (int i = 0; i < NY; i++) y[i] = y0[i];
  double t = 0, h = 0.05;
  const method *a = &methods[0], *b = &methods[1];
  while (t < T) {
    if (t + h > T) h = T - t;
    a->step(lotka, t, h, y, lo, w, p);
    b->step(lotka, t, h, y, hi, w, p);
    double err = 0;
    for (int i = 0; i < NY; i++) err += fabs(hi[i] - lo[i]);
    if (err > 1e-3 && h > 1e-3) {
      h *= 0.5;
      g_stats.rejects++;
      continue;
    }
    for (int i = 0; i < NY; i++) y[i] = hi[i];
    t += h;
    g_stats.steps++;
    if (err < 1e-5) h *= 1.5;
  }
  for (int i = 0; i < NY; i++) yT[i] = y[i];
  free(w);
}

double objective(const double *y0, params *p) {
  double yT[NY];
  solve(y0, yT, p, 1.0);
  return yT[0] * yT[0] + yT[1] + 0.5 * yT[2] * yT[1];
}

static double gy[NY];
static params gp;
static double eval(void *c) { (void)c; return objective(gy, &gp); }

int main(void) {
  gy[0] = 1.0; gy[1] = 0.6; gy[2] = 0.2;
  gp.k1 = 0.9; gp.k2 = 0.7; gp.k3 = 1.3; gp.kind = 1;
  double dy[NY] = {0};
  params dp = {0, 0, 0, 0};
  __enzyme_autodiff_v((void *)objective, enzyme_dup, gy, dy, enzyme_dup, &gp, &dp);
  for (int i = 0; i < NY; i++)
    fz_check("ode objective d/dy0", dy[i], fz_fd_ptr(eval, 0, &gy[i]), 1e-6);
  fz_check("ode objective d/dk1", dp.k1, fz_fd_ptr(eval, 0, &gp.k1), 1e-6);
  fz_check("ode objective d/dk2", dp.k2, fz_fd_ptr(eval, 0, &gp.k2), 1e-6);
  fz_check("ode objective d/dk3", dp.k3, fz_fd_ptr(eval, 0, &gp.k3), 1e-6);

  double vy[NY] = {0.3, -0.5, 0.8};
  params vp = {0.2, -0.4, 0.1, 0};
  double want = dp.k1 * vp.k1 + dp.k2 * vp.k2 + dp.k3 * vp.k3;
  for (int i = 0; i < NY; i++) want += dy[i] * vy[i];
  double jv = __enzyme_fwddiff((void *)objective, enzyme_dup, gy, vy, enzyme_dup, &gp, &vp);
  fz_check("ode objective forward = <grad, v>", jv, want, 1e-10);
  fz_check("stats counted", g_stats.steps > 0, 1, 0);
  return fz_finish();
}
