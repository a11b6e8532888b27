// OPT: O0 O1 O2 O3
// A global struct whose pointer field `main` set (G.data = malloc(...)), its address
// stored into a heap block the differentiated function allocates (`h->s = &G`) and read
// by a helper through it (`h->s->data[i]`). The global's shadow is zero-filled, so the
// shadow of G.data is null: the reverse sweep added adjoints through it and the program
// crashed at every level (sweep11) — the guard of 656/660 followed `&G` through
// parameters only, not through memory. Now it stops with the guard's message (filetest
// global_pointer_shadow_guard_held_in_memory). Declared __enzyme_inactive_global, the same
// program gives the right gradient (674). The -O0 local `struct H h = {&G, 2.0}` copy is
// tests/errors/const_initializer_global_address.c.
// probe40: the pointer `main` stores into G (malloc's memory) now gets a zeroed shadow
// of the same size where it is stored (outside_allocations.rs, Enzyme's implicit global
// shadow), so the derivative is computed instead of the stop; the stop stays for a
// pointer to other memory (tests/c/106, filetests global_pointer_shadow_guard*).
#include "fz_test.h"

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
