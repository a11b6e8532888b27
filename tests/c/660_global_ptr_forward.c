// OPT: O0 O1 O2 O3
// Forward mode (__enzyme_fwddiff) on 656's pattern, the global struct read two calls
// down (f -> mid(&G) -> get(m), get reads m->data[i]). Forward mode had no guard at all:
// the tangent of G.data read from the global's zero shadow is null and reading the
// tangent of m->data[i] through it crashed, even with the load in f itself. The tangent
// of a pointer read from a global's shadow (directly or through a parameter that may
// receive the global, global_args.rs) is now checked as in reverse mode: the program
// stops with the message.
// probe40: the pointer `main` stores into G (malloc's memory) now gets a zeroed shadow
// of the same size where it is stored (outside_allocations.rs, Enzyme's implicit global
// shadow), so the derivative is computed instead of the stop; the stop stays for a
// pointer to other memory (tests/c/106, filetests global_pointer_shadow_guard*).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

struct S {
  double *data;
  int n;
};
struct S G;

__attribute__((noinline)) double get(struct S *m, int i) { return m->data[i]; }
__attribute__((noinline)) double mid(struct S *m, int i) { return 2.0 * get(m, i); }

double f(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) s += mid(&G, i) * x * x;
  return s;
}

int main(void) {
  G.n = 3;
  G.data = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  double x = 2.0;
  fz_check("df/dx", __enzyme_fwddiff((void *)f, x, 1.0), 24.0 * x, 1e-12);
  free(G.data);
  return fz_finish();
}
