// OPT: O0 O2
// act34: c/1335 and c/1336 in forward mode (`__enzyme_fwddiff`): `make_c` mallocs a context,
// keeps `r->m->s->l->w` (four loads out of the enzyme_const registry) in it and returns it; the
// reader goes through the returned pointer. Oracles: the analytic directional derivative,
// central finite differences along the direction, the weights left untouched.
#include "fz_test.h"
#include <math.h>
#include <stdlib.h>
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double *w; int n; } layer;
typedef struct { int k; layer *l; } stage;
typedef struct { int depth; stage *s; } model;
typedef struct { int id; model *m; } registry;
typedef struct { const double *w; double scale; } ctx;
__attribute__((noinline)) static ctx *make_c(const registry *r) {
  ctx *c = malloc(sizeof *c);
  c->w = r->m->s->l->w;
  c->scale = 2.0;
  return c;
}
__attribute__((noinline)) static double rd_c(const ctx *c, const double *x) {
  return c->scale * (c->w[0] * x[0] * x[1] + sin(c->w[1] * x[1]) + c->w[2] * x[2]);
}
static double loss(const registry *reg, const double *x) {
  ctx *c = make_c(reg);
  double v = rd_c(c, x);
  free(c);
  return v;
}
int main(void) {
  double w[3] = {0.3, -2.0, 0.75};
  layer la = {w, 3};
  stage st = {1, &la};
  model mo = {1, &st};
  registry reg = {7, &mo};
  double x[3] = {0.7, -0.4, 1.3}, v[3] = {0.5, -1.0, 2.0};
  double dl = __enzyme_fwddiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, v);
  double g[3] = {2.0 * w[0] * x[1], 2.0 * (w[0] * x[0] + w[1] * cos(w[1] * x[1])), 2.0 * w[2]};
  fz_check("J.v", dl, g[0] * v[0] + g[1] * v[1] + g[2] * v[2], 1e-12);
  double h = 1e-6, xp[3], xm[3];
  for (int i = 0; i < 3; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  fz_check("J.v fd", dl, (loss(&reg, xp) - loss(&reg, xm)) / (2 * h), 1e-6);
  fz_check("weights untouched", w[0] + w[1] + w[2], 0.3 - 2.0 + 0.75, 0);
  return fz_finish();
}
