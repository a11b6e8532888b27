// OPT: O0 O2
// EXPECT-ERROR: mismatched activity: `fill` writes a value that depends on differentiable inputs
// EXPECT-ERROR: reached through the pointer without a shadow stored into global `g_s`
// EXPECT-ERROR: the pass judged the call of `get_scratch` inactive
// EXPECT-ERROR-LINE: READ-MARKER
// audit32: a lost store through a global. The scratch buffer comes out of a caller-provided
// registry (enzyme_const) through `get_scratch`, rightly inactive, so it has no shadow; the
// differentiated function keeps the pointer in a global (which has a shadow: runtime activity
// makes the pointer its own shadow), `fill` writes active values through the global and `rd`
// reads them back through it. Neither call is given the memory as an argument. Before audit32
// all three gradient entries came out 0 at -O0, -O2 and --ad-before-opt, with no error.
#include "../c/fz_test.h"

extern int enzyme_dup, enzyme_const;

typedef struct {
  int n;
  double *scratch;
} registry;

static double *g_s;

__attribute__((noinline)) static double *get_scratch(const registry *r) { return r->scratch; }

__attribute__((noinline)) static void fill(const double *x) {
  g_s[0] = sin(x[0]);
  g_s[1] = x[0] * x[1];
  g_s[2] = exp(x[1]);
}

__attribute__((noinline)) static double rd(void) { return g_s[0] * g_s[1] + g_s[2]; }

double loss(const registry *reg, const double *x) {
  g_s = get_scratch(reg);
  fill(x);
  return rd(); // READ-MARKER
}

int main(void) {
  double buf[4] = {0};
  registry reg = {4, buf};
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  printf("%g %g\n", dx[0], dx[1]);
  return 0;
}
