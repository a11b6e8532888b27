// OPT: O0 O1 O2
// act33: c/1302's pattern three loads deep and split across two callees: `init_c` reads
// `r->m` (kept in a local at -O0) and `m->l`, and hands `m->l` to `set_w`, which keeps
// `l->w` (the third load out of the enzyme_const registry) in the caller's struct that
// has a shadow; `rd_c` then reads the weights through it. Runtime activity takes the
// pointer over in `set_w` and guards the caller's later reads (the walk follows the
// pointer into `set_w` knowing that its `c` is memory the caller handed in). Oracles:
// the analytic gradient, central finite differences, and the weights left untouched.
#include "fz_test.h"
#include <math.h>

typedef struct { double *w; int n; } layer;
typedef struct { int depth; layer *l; } model;
typedef struct { int id; model *m; } registry;
typedef struct { const double *w; double scale; } ctx;

__attribute__((noinline)) static void set_w(ctx *c, const layer *l) { c->w = l->w; }

__attribute__((noinline)) static void init_c(ctx *c, const registry *r) {
  const model *m = r->m;
  set_w(c, m->l);
  c->scale = 2.0;
}

__attribute__((noinline)) static double rd_c(const ctx *c, const double *x) {
  return c->scale * (c->w[0] * x[0] * x[1] + sin(c->w[1] * x[1]) + c->w[2] * x[2]);
}

static double loss(const registry *reg, const double *x) {
  ctx c;
  init_c(&c, reg);
  return rd_c(&c, x);
}

typedef struct { const registry *reg; double *x; } fd_ctx;
static double eval(void *p) {
  fd_ctx *k = (fd_ctx *)p;
  return loss(k->reg, k->x);
}

int main(void) {
  double w[3] = {0.3, -2.0, 0.75};
  layer la = {w, 3};
  model mo = {1, &la};
  registry reg = {7, &mo};
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 2.0 * w[0] * x[1], 1e-12);
  fz_check("dx1", dx[1], 2.0 * (w[0] * x[0] + w[1] * cos(w[1] * x[1])), 1e-12);
  fz_check("dx2", dx[2], 2.0 * w[2], 1e-12);
  fd_ctx k = {&reg, x};
  double g[3];
  fz_fd_grad(eval, &k, x, 3, g);
  for (int i = 0; i < 3; i++) fz_check("dx (fd)", dx[i], g[i], 1e-6);
  fz_check("weights untouched", w[0] + w[1] + w[2], 0.3 - 2.0 + 0.75, 0);
  return fz_finish();
}
