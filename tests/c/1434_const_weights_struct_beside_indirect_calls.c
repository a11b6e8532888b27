// OPT: O0 O1 O2 O3
// An `enzyme_const` weights pointer kept in a stack struct beside differentiated data
// (difftest's `constw` feature), in a function that also calls through function pointers
// kept in other stack objects (C++ virtual calls in difftest's C++ seeds 3060 at -O2 and
// 8062 at -O0; C seeds 8055 and 9121 at -O2 without them). Run-time activity makes the
// weights pointer its own shadow in the struct; the refusal came from the indirect calls:
// "a constant (enzyme_const) pointer was stored into memory that has a shadow, and an
// indirect callee is given shadowed memory it may read that pointer back from", and
// pointers loaded from the table of objects were taken as maybe-primal. Those objects
// never hold the weights pointer (it is stored into the struct only, whose address goes
// to a helper that stores no pointers), so the callees cannot read it back.
// Oracles: the analytic gradient, central differences, forward mode along a direction
// against the gradient (dot product), the weights bit-for-bit unchanged.
#include "fz_test.h"
#include <math.h>
#include <string.h>

struct WS { const double *w; double s; double *out; int n; };

// Reads the weights through the struct; stores no pointer.
__attribute__((noinline)) static void wsp(const struct WS *p, double *res) {
  double acc = *res;
  for (int i = 0; i < p->n; i++) acc = acc * 0.5 + p->w[i] * tanh(p->out[(i + 2) % p->n] + p->s);
  *res = acc;
}

struct Obj;
typedef double (*EvalFn)(const struct Obj *, double);
struct Obj { EvalFn eval; double w; };
static double sq(const struct Obj *o, double u) { return o->w * u * u; }
static double sn(const struct Obj *o, double u) { return sin(o->w * u); }
// A mutable table: the calls stay indirect at every level.
EvalFn TAB[2] = {sq, sn};

#define N 5

double f(double *x, const double *cw, int n) {
  struct WS ws = {cw, sin(x[0]), x, n};
  double r = cw[1] * x[4];
  wsp(&ws, &r);
  struct Obj a = {TAB[0], x[1]}, b = {TAB[1], x[2]};
  const struct Obj *objs[2] = {&a, &b};
  double t = x[3];
  for (int i = 0; i < n; i++) t += 0.3 * objs[i % 2]->eval(objs[i % 2], tanh(t));
  return r + t;
}

// The same computation written out with its derivative (reverse, by hand).
static double f_and_grad(const double *x, const double *w, int n, double *g) {
  double s = sin(x[0]), ds_dx0 = cos(x[0]);
  double acc = w[1] * x[4];
  double dacc[N] = {0}; // d acc / d x
  dacc[4] = w[1];
  for (int i = 0; i < n; i++) {
    int k = (i + 2) % n;
    double th = tanh(x[k] + s), dth = 1 - th * th;
    for (int j = 0; j < N; j++) dacc[j] *= 0.5;
    dacc[k] += w[i] * dth;
    dacc[0] += w[i] * dth * ds_dx0;
    acc = acc * 0.5 + w[i] * th;
  }
  double t = x[3], dt[N] = {0};
  dt[3] = 1;
  for (int i = 0; i < n; i++) {
    double u = tanh(t), du = 1 - u * u;
    double c, dc_du, dc_dw;
    int wi = i % 2 ? 2 : 1;
    if (i % 2 == 0) {
      c = x[1] * u * u, dc_du = 2 * x[1] * u, dc_dw = u * u;
    } else {
      c = sin(x[2] * u), dc_du = cos(x[2] * u) * x[2], dc_dw = cos(x[2] * u) * u;
    }
    double nd[N];
    for (int j = 0; j < N; j++) nd[j] = dt[j] + 0.3 * dc_du * du * dt[j];
    nd[wi] += 0.3 * dc_dw;
    memcpy(dt, nd, sizeof nd);
    t += 0.3 * c;
  }
  for (int j = 0; j < N; j++) g[j] = dacc[j] + dt[j];
  return acc + t;
}

static double X[N];
static const double W[N] = {0.7, -0.4, 1.3, 0.25, -0.9};
static double eval(void *ctx) {
  (void)ctx;
  return f(X, W, N);
}

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

int main(void) {
  const double x0[N] = {0.4, -0.8, 1.1, 0.3, 0.6};
  double w[N], w0[N];
  memcpy(w, W, sizeof w);
  memcpy(w0, W, sizeof w0);
  double x[N], dx[N] = {0}, g[N], fd[N];
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, N);
  double fv = f_and_grad(x0, W, N, g);
  fz_check("primal vs written out", f(x, w, N), fv, 1e-12);
  fz_check_arr("gradient vs analytic", dx, g, N, 1e-10);
  for (int i = 0; i < N; i++) {
    memcpy(X, x0, sizeof X);
    fd[i] = fz_fd_ptr(eval, 0, &X[i]);
  }
  fz_check_arr("gradient vs central differences", dx, fd, N, 1e-6);
  double v[N] = {0.3, -1.0, 0.5, 0.8, -0.2}, tx[N];
  memcpy(tx, v, sizeof tx);
  double jv = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, w, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * v[i];
  fz_check("forward J v vs <grad, v>", jv, dot, 1e-10);
  for (int i = 0; i < N; i++) fz_check("weights unchanged", w[i], w0[i], 0);
  for (int i = 0; i < N; i++) fz_check("x unchanged", x[i], x0[i], 0);
  return fz_finish();
}
