// OPT: O0 O2
// EXPECT-ERROR: mismatched activity: `fill_c` writes a value that depends on differentiable inputs
// EXPECT-ERROR: reached through the pointer without a shadow stored into memory from `
// EXPECT-ERROR: the pass judged the call of `get_scratch` inactive
// EXPECT-ERROR-LINE: READ-MARKER
// audit32: a lost store through a local struct passed by address. The struct has a shadow,
// but the scratch pointer stored in it comes out of an enzyme_const registry (through an
// inactive `get_scratch`) and has none; `fill_c(&c, x)` writes active values through `c.s`
// and `rd_c(&c)` reads them back. Before audit32 the gradient was 0 at every level, no error.
// A pointer with a shadow stored there instead (c/1301) differentiates.
#include "../c/fz_test.h"

extern int enzyme_dup, enzyme_const;

typedef struct {
  int n;
  double *scratch;
} registry;
typedef struct {
  double *s;
  double scale;
} ctx;

__attribute__((noinline)) static double *get_scratch(const registry *r) { return r->scratch; }

__attribute__((noinline)) static void fill_c(ctx *c, const double *x) {
  c->s[0] = sin(x[0]);
  c->s[1] = x[0] * x[1];
  c->s[2] = exp(x[1]);
}

__attribute__((noinline)) static double rd_c(const ctx *c) {
  return c->scale * (c->s[0] * c->s[1] + c->s[2]);
}

double loss(const registry *reg, const double *x) {
  ctx c;
  c.s = get_scratch(reg);
  c.scale = 1.0;
  fill_c(&c, x);
  return rd_c(&c); // READ-MARKER
}

int main(void) {
  double buf[4] = {0};
  registry reg = {4, buf};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  printf("%g %g\n", dx[0], dx[1]);
  return 0;
}
