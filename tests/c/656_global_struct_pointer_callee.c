// OPT: O0 O2
// IGNORE: crashes (segmentation fault) at run time, found by sweep9 and not fixed: a global struct whose pointer field the program set before the call (G.data = malloc(...) in main) is read through a callee (`get(&G, i)`). The global's shadow is zero-filled, so the shadow of G.data is null; the guard that stops with "the pointer read from global ... has no shadow" covers only loads whose address is the global itself, not loads in a callee through its pointer argument, and the reverse sweep adds the adjoint of `s->data[i]` through the null shadow. The same read in `f` itself (no callee) stops with the guard's message. Until then: mark G inactive (__enzyme_inactive_global) or pass the data with enzyme_dup.
// Global state as older C codes keep it: a struct with a pointer to run-time allocated
// data, read by a helper. Oracle: analytic (G's data are constants of the model).
#include "fz_test.h"

struct S {
  double *data;
  int n;
};
struct S G;

__attribute__((noinline)) double get(struct S *s, int i) { return s->data[i]; }

double f(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) s += get(&G, i) * x * x;
  return s;
}

int main(void) {
  G.n = 3;
  G.data = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  double x = 2.0;
  fz_check("df/dx", __enzyme_autodiff((void *)f, x), 6.0 * 2.0 * x, 1e-12);
  free(G.data);
  return fz_finish();
}
