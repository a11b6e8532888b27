// OPT: O0 O2
// c/1303 one load deeper: `init_c` keeps `r->m->s->l->w` in a local struct with a shadow; `rd_c`
// reads the weights through it. Oracles: the analytic gradient, the weights left untouched.
#include "fz_test.h"
#include <math.h>
typedef struct { double *w; int n; } layer;
typedef struct { int k; layer *l; } stage;
typedef struct { int depth; stage *s; } model;
typedef struct { int id; model *m; } registry;
typedef struct { const double *w; double scale; } ctx;
__attribute__((noinline)) static void init_c(ctx *c, const registry *r) {
  c->w = r->m->s->l->w;
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
int main(void) {
  double w[3] = {0.3, -2.0, 0.75};
  layer la = {w, 3};
  stage st = {1, &la};
  model mo = {1, &st};
  registry reg = {7, &mo};
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 2.0 * w[0] * x[1], 1e-12);
  fz_check("dx1", dx[1], 2.0 * (w[0] * x[0] + w[1] * cos(w[1] * x[1])), 1e-12);
  fz_check("dx2", dx[2], 2.0 * w[2], 1e-12);
  fz_check("weights untouched", w[0] + w[1] + w[2], 0.3 - 2.0 + 0.75, 0);
  return fz_finish();
}
