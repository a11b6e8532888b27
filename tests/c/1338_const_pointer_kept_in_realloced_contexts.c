// OPT: O0 O2
// act34: a pointer read two loads out of the enzyme_const registry (`r->m->weights`) kept in a
// growing array of contexts: the loss reallocs the array by one context at a time and `init_c`
// fills the new one (c/1302's initializer; `realloc` moves the contexts kept before, with their
// shadows). Oracles: the analytic gradient, central finite differences of the primal, the
// weights left untouched. (A callee that reallocs an array it is given and returns it is
// refused at -O2 with a clear error: the array is maybe-primal there, and runtime activity
// cannot guard `realloc`.)
#include "fz_test.h"
#include <math.h>
#include <stdlib.h>
typedef struct { int rows; double *weights; } matrix;
typedef struct { int id; matrix *m; } registry;
typedef struct { const double *w; int k; double scale; } ctx;
__attribute__((noinline)) static void init_c(ctx *c, const registry *r, int n) {
  c->w = r->m->weights;
  c->k = n;
  c->scale = 0.5 * (n + 1);
}
__attribute__((noinline)) static double rd(const ctx *c, const double *x) {
  return c->scale * c->w[c->k] * x[c->k] * x[c->k] + exp(c->w[c->k + 1] * x[0]);
}
static double loss(const registry *reg, const double *x) {
  ctx *cs = NULL;
  for (int n = 0; n < 3; n++) {
    cs = realloc(cs, (size_t)(n + 1) * sizeof *cs);
    init_c(&cs[n], reg, n);
  }
  double s = 0;
  for (int n = 0; n < 3; n++)
    s += rd(&cs[n], x);
  free(cs);
  return s;
}
typedef struct { const registry *reg; double *x; } fd_ctx;
static double eval(void *p) {
  fd_ctx *c = p;
  return loss(c->reg, c->x);
}
int main(void) {
  double w[4] = {0.3, -0.8, 1.25, 0.4};
  matrix m = {1, w};
  registry reg = {7, &m};
  double x[3] = {0.7, -0.4, 1.1}, dx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &reg, enzyme_dup, x, dx);
  double want[3] = {0, 0, 0};
  for (int n = 0; n < 3; n++) {
    want[n] += 0.5 * (n + 1) * w[n] * 2 * x[n];
    want[0] += w[n + 1] * exp(w[n + 1] * x[0]);
  }
  fd_ctx c = {&reg, x};
  double fd[3];
  fz_fd_grad(eval, &c, x, 3, fd);
  for (int i = 0; i < 3; i++) {
    char label[32];
    snprintf(label, sizeof label, "dx%d", i);
    fz_check(label, dx[i], want[i], 1e-12);
    snprintf(label, sizeof label, "dx%d fd", i);
    fz_check(label, dx[i], fd[i], 1e-6);
  }
  fz_check("weights untouched", w[0] + w[1] + w[2] + w[3], 0.3 - 0.8 + 1.25 + 0.4, 0);
  return fz_finish();
}
