// OPT: O0 O2
// c/1301's pattern one load deeper: the initializer keeps `r->m->weights` (two loads out of
// the enzyme_const registry) in a local struct with a shadow; the gradient is the analytic one.
// Crashed as c/1301 did (SIGSEGV at -O0, exit 48 at -O2) until act33: runtime activity now
// takes over pointers read up to three loads out of enzyme_const memory (kept in memory the
// caller handed in with a shadow).
#include "fz_test.h"
typedef struct { int n; double *weights; } model;
typedef struct { int id; model *m; } registry;
typedef struct { const double *w; double scale; } ctx;
__attribute__((noinline)) static void init_c(ctx *c, const registry *r) {
  c->w = r->m->weights;
  c->scale = 1.5;
}
__attribute__((noinline)) static double rd_c(const ctx *c, const double *x) {
  return c->scale * (c->w[0] * x[0] + c->w[1] * x[1] * x[1]);
}
static double loss(const registry *reg, const double *x) {
  ctx c;
  init_c(&c, reg);
  return rd_c(&c, x);
}
int main(void) {
  double w[2] = {0.3, -2.0};
  model mo = {2, w};
  registry reg = {7, &mo};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 1.5 * w[0], 1e-12);
  fz_check("dx1", dx[1], 1.5 * 2.0 * w[1] * x[1], 1e-12);
  fz_check("weights untouched", w[0] + w[1], 0.3 - 2.0, 0);
  return fz_finish();
}
