// OPT: O0 O2
// c/1301's pattern with the context allocated and returned by the callee (a C constructor); the
// reader goes through the returned pointer. Oracles: the analytic gradient, the weights untouched.
#include "fz_test.h"
#include <math.h>
#include <stdlib.h>
typedef struct { double *weights; int n; } registry;
typedef struct { const double *w; double scale; } ctx;
__attribute__((noinline)) static ctx *make_c(const registry *r) {
  ctx *c = malloc(sizeof *c);
  c->w = r->weights;
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
  registry reg = {w, 3};
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 2.0 * w[0] * x[1], 1e-12);
  fz_check("dx1", dx[1], 2.0 * (w[0] * x[0] + w[1] * cos(w[1] * x[1])), 1e-12);
  fz_check("dx2", dx[2], 2.0 * w[2], 1e-12);
  fz_check("weights untouched", w[0] + w[1] + w[2], 0.3 - 2.0 + 0.75, 0);
  return fz_finish();
}
