// OPT: O0 O1 O2 O3
// IGNORE-REF: the `--ad-before-opt` trial differentiates the unoptimized IR, where the local `{&G, 2.0}` of `f_local` is copied from a private constant as at -O0 and 674's guard stops the program by design (a clear message, not a wrong number); `f_int` and the optimized trials cover the rest
// The forms of 674 (`&G` of a global declared `__enzyme_inactive_global` stored into
// memory) that work, and must not meet 674's guard: `f_local` initialises a local struct
// `{&G, 2.0}` that activity finds constant at -O1 and above (its loads through `h.s` are
// inactive: right gradient, G's data untouched); clang -O0 copies it from a private
// constant and makes it active, where the guard stops the program, so it runs from -O1
// only. `f_int` stores `&G` into an active heap block and a noinline helper reads only an
// int through it (`h->s->n`): the null shadow is never read through, no guard, right
// gradient at every level (reverse and forward mode). Checked against the analytic
// derivatives, and G's data after.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct S {
  double *data;
  int n;
};
struct S G;
void *__enzyme_inactive_global[] = {(void *)&G};
struct H {
  struct S *s;
  double w;
};

__attribute__((noinline)) double get(struct H *h, int i) { return h->s->data[i]; }
__attribute__((noinline)) int cnt(struct H *h) { return h->s->n; }

double f_local(double x) {
  struct H h = {&G, 2.0};
  double s = 0;
  for (int i = 0; i < G.n; i++) s += get(&h, i) * x * x * h.w;
  return s;
}

double f_int(double x) {
  struct H *h = (struct H *)malloc(sizeof *h);
  h->s = &G;
  h->w = x;
  double s = 0;
  for (int i = 0; i < cnt(h); i++) s += h->w * x * G.data[i];
  free(h);
  return s;
}

int main(void) {
  G.n = 3;
  G.data = (double *)malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  // f_int = x^2 * (1 + 2 + 3): d/dx = 2 * x * 6.
  fz_check("df_int/dx", __enzyme_autodiff((void *)f_int, 1.5), 2 * 1.5 * 6, 1e-12);
  fz_check("df_int/dx forward", __enzyme_fwddiff((void *)f_int, 1.5, 1.0), 2 * 1.5 * 6, 1e-12);
#ifdef __OPTIMIZE__
  // f_local = 2 x^2 * 6: d/dx = 2 * 2 * x * 6.
  fz_check("df_local/dx", __enzyme_autodiff((void *)f_local, 1.5), 2 * 1.5 * 6 * 2.0, 1e-12);
#endif
  for (int i = 0; i < 3; i++) fz_check("G.data unchanged", G.data[i], i + 1, 0);
  return fz_finish();
}
