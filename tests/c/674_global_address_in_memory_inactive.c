// OPT: O0 O1 O2 O3
// EXPECT-RUNTIME-ERROR: the pointer read here is the address of global `G`, declared inactive
// EXPECT-RUNTIME-ERROR: in `get`
// EXPECT-RUNTIME-ERROR: enzyme_const
// 673 with the global declared `__enzyme_inactive_global`: `h->s = &G` stores the address
// of a global that has no shadow into a heap block, and `get` (noinline, its loads active
// since `h` is) reads `h->s->data[i]`. The shadow stored for `&G` is null, and the
// augmented forward pass read the shadow of `h->s->data` through it: SIGSEGV at every
// level (sweep11). Using `&G` as its own shadow (Enzyme's choice) would let the reverse
// sweep add the adjoints of `data[i]` into G's own data, since activity does not know the
// pointer read back is G's; so the load of `h->s` is guarded instead and the program stops
// with a message naming `G`, `get` and advising enzyme_const (filetest
// inactive_global_address_held_in_memory_guard). The local-struct form, and a helper that
// only reads an int through `h->s`, give the right gradient:
// 674_global_address_in_memory_inactive_local.c.
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

int main(void) {
  G.n = 3;
  G.data = (double *)malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  double d = __enzyme_autodiff((void *)f, 1.5);
  fz_check("df/dx", d, 2 * 1.5 * 6 * 2.0, 1e-12);
  return fz_finish();
}
