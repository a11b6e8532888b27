// OPT: O0
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: f_local
// EXPECT-ERROR: holds the address of global `G`
// EXPECT-ERROR-LINE: INIT-MARKER
// clang -O0 initialises `struct H h = {&G, 2.0}` by copying a constant
// (`@__const.f_local.h = { ptr @G, double 2.0 }`) into the local; the constant has no
// shadow, so the local's shadow held a null pointer where `G`'s shadow belongs and the
// reverse sweep crashed through it (sweep11). A clear error now; -O1 and above store
// `&G` itself (tests/c/673 gives the run-time guard's message there).
#include "../c/fz_test.h"

struct S {
  double *data;
  int n;
};
struct S G;
struct H {
  struct S *s;
  double w;
};

__attribute__((noinline)) double get(struct H *h, int i) { return h->s->data[i]; }

double f_local(double x) {
  struct H h = {&G, 2.0}; // INIT-MARKER
  double s = 0;
  for (int i = 0; i < G.n; i++) s += get(&h, i) * x * x * h.w;
  return s;
}

int main(void) {
  G.n = 3;
  G.data = (double *)malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  printf("%g\n", __enzyme_autodiff((void *)f_local, 1.5));
  return 0;
}
