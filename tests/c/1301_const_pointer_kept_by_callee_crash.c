// OPT: O0 O2
// audit32: a local struct passed by address to an initializer that keeps a constant pointer
// in it (read out of an enzyme_const registry), then to a reader that only reads constants
// through that pointer. Nothing is lost here: the gradient is the analytic one.
// Crashed until session 14 (SIGSEGV at -O0, exit 48 at -O2/REF: the struct's shadow field
// stayed null and the reader's adjoint went through it); now runtime activity makes a
// pointer read out of enzyme_const memory and kept in memory the caller handed in its own
// shadow, and guards the caller's later reads (audit/const_pointers.rs).
#include "fz_test.h"

typedef struct {
  int n;
  double *weights;
} registry;
typedef struct {
  const double *w;
  double scale;
} ctx;

__attribute__((noinline)) static void init_c(ctx *c, const registry *r) {
  c->w = r->weights;
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
  registry reg = {2, w};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  fz_check("dx0", dx[0], 1.5 * w[0], 1e-12);
  fz_check("dx1", dx[1], 1.5 * 2.0 * w[1] * x[1], 1e-12);
  fz_check("weights untouched", w[0] + w[1], 0.3 - 2.0, 0);
  return fz_finish();
}
