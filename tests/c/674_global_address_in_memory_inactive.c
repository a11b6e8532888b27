// OPT: O0 O1 O2 O3
// IGNORE: crashes (SIGSEGV) at every level: the shadow of an inactive global's address stored into shadowed memory (`h->s = &G` into the heap block's shadow) is null, and the callee's augmented forward pass loads `h->s->data`'s shadow through it. Found by sweep11, not fixed: storing `&G` itself as its shadow (Enzyme's choice for inactive globals) would let the reverse sweep add adjoints into G's own data; it needs activity to know the pointer read back is G's.
// 673 with the global declared `__enzyme_inactive_global` (it holds constants for the
// derivative): the pointer read through the heap block is the primal, and the gradient
// is right at every level, in the local-struct form too (`struct H h = {&G, 2.0}`, which
// -O0 initialises by copying a constant: allowed for an inactive global).
#include "fz_test.h"

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

double f(double x) {
  struct H *h = (struct H *)malloc(sizeof *h);
  h->s = &G;
  h->w = 2.0;
  double s = 0;
  for (int i = 0; i < G.n; i++) s += get(h, i) * x * x * h->w;
  free(h);
  return s;
}

double f_local(double x) {
  struct H h = {&G, 2.0};
  double s = 0;
  for (int i = 0; i < G.n; i++) s += get(&h, i) * x * x * h.w;
  return s;
}

int main(void) {
  G.n = 3;
  G.data = (double *)malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  double d = __enzyme_autodiff((void *)f, 1.5);
  fz_check("df/dx", d, 2 * 1.5 * 6 * 2.0, 1e-12);
  fz_check("df/dx local", __enzyme_autodiff((void *)f_local, 1.5), 2 * 1.5 * 6 * 2.0, 1e-12);
  return fz_finish();
}
