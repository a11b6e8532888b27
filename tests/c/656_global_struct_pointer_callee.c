// OPT: O0 O2
// A global struct whose pointer field the program set before the call (G.data =
// malloc(...) in main), read through a callee (`get(&G, i)`). The global's shadow is
// zero-filled, so the shadow of G.data is null; the guard that stops with "the pointer
// read from global ... has no shadow" covered only loads whose address is the global
// itself, and the reverse sweep added the adjoint of `s->data[i]` through the null
// shadow: a segmentation fault (found by sweep9). The guard now also covers loads in a
// callee through a parameter a call site passes the global for (`global_args.rs`,
// filetest global_pointer_shadow_guard_in_callee). Declared __enzyme_inactive_global, the
// same program gives df/dx = 24 (tests/c/657).
// Global state as older C codes keep it: a struct with a pointer to run-time allocated
// data, read by a helper.
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
