// OPT: O0 O1 O2 O3
// probe40: a global pointer to memory the program allocates outside the differentiated
// code (`a = aligned_alloc(64, ...)` in an `init`, `G.w = calloc(...)` in main), as
// Enzyme's global_shadow_aligned_alloc test and flang's module arrays do. The global's
// shadow gets a zeroed allocation of the same size where the program stores the pointer
// (Enzyme's implicit global shadow): derivatives read and accumulate through it, the
// program reads the gradient through `*(double **)__enzyme_shadow(ctx, &a, 0)`,
// `__enzyme_zero_shadows` and every top-level call without a context zero it. Before,
// the shadow stayed null and the derivative stopped the program ("the pointer read from
// global `a` has no shadow"). A pointer to the program's own array stays that stop
// (tests/c/106). Oracles: analytic derivatives, central differences, forward = reverse.
#include "fz_test.h"
#include <stdlib.h>
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern double __enzyme_autodiff_g(double (*)(double), ...) __asm__("__enzyme_autodiff");
extern double __enzyme_fwddiff_g(double (*)(double), ...) __asm__("__enzyme_fwddiff");
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_context;

double *a;
double g = 2.0;
struct { double p; double q; } blk = {1.0, 3.0};
struct model { int n; double *w; } G;

__attribute__((noinline)) void init(void) {
  a = (double *)aligned_alloc(64, 8 * sizeof(double));
  for (int i = 0; i < 8; i++) a[i] = i + 1;
}

double f(double x) {
  double s = 0;
  for (int i = 0; i < 8; i++) s += a[i] * a[i] * x;
  return s * g + blk.q * x * x;
}

/* The weights through a struct in a global, and a write through the pointer. */
__attribute__((noinline)) double weight(const struct model *m, int i) { return m->w[i]; }
double h(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) s += sin(weight(&G, i) * x);
  G.w[0] = G.w[0] * 1.0;
  return s;
}
static double h_val(double x) { return h(x); }

int main(void) {
  init();
  void *ctx = __enzyme_context(1);
  double **da = (double **)__enzyme_shadow(ctx, &a, 0);
  double *dg = (double *)__enzyme_shadow(ctx, &g, 0);
  double *dq = (double *)__enzyme_shadow(ctx, &blk.q, 0);
  fz_check("the shadow of a is allocated", *da != 0, 1, 0);
  double sa = 0;
  for (int i = 0; i < 8; i++) sa += (i + 1) * (i + 1);
  for (int j = 1; j <= 2; j++) {
    __enzyme_zero_shadows(ctx);
    double x = 0.5 * j;
    double dx = __enzyme_autodiff_g(f, enzyme_context, ctx, x);
    fz_check("dx", dx, sa * g + 2 * blk.q * x, 1e-12);
    fz_check("dg", *dg, sa * x, 1e-12);
    fz_check("dq", *dq, x * x, 1e-12);
    for (int i = 0; i < 8; i++) fz_check("da[i]", (*da)[i], 2.0 * (i + 1) * x * g, 1e-12);
  }
  /* Forward mode: the tangents seeded in the shadows of g and a[3]. */
  __enzyme_zero_shadows(ctx);
  *dg = 1.0;
  (*da)[3] = 1.0;
  double x = 0.7;
  fz_check("fwd tangent (g, a[3])", __enzyme_fwddiff_g(f, enzyme_context, ctx, x, 0.0),
           sa * x + 2 * 4.0 * x * g, 1e-12);
  /* Without a context: the shadows are zeroed first, calls do not accumulate. */
  for (int j = 0; j < 2; j++)
    fz_check("dx, no context", __enzyme_autodiff_g(f, x), sa * g + 2 * blk.q * x, 1e-12);
  fz_check("fwd, no context", __enzyme_fwddiff_g(f, x, 1.0), sa * g + 2 * blk.q * x, 1e-12);

  G.n = 5;
  G.w = (double *)calloc(5, sizeof(double));
  for (int i = 0; i < 5; i++) G.w[i] = 0.3 * (i + 1);
  double y = 1.1;
  double want = fz_fd1(h_val, y);
  fz_check("struct field from calloc: reverse", __enzyme_autodiff((void *)h, y), want, 1e-7);
  fz_check("struct field from calloc: forward", __enzyme_fwddiff((void *)h, y, 1.0), want, 1e-7);
  free(G.w);
  free(a);
  return fz_finish();
}
