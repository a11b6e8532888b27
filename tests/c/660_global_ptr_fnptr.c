// OPT: O0 O1 O2 O3
// The global struct of 656 handed down two calls, the second through a function pointer
// read from a volatile variable (so no -O level turns it into a direct call): f ->
// mid(&G) -> (*pick)(m, i), get reads m->data[i]. A function whose address is taken may be
// called through any call through a pointer; global_args.rs counts those as its call
// sites. Before, the reverse sweep crashed writing through the null shadow of G.data; now
// the program stops with the message.
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

typedef double (*getter)(struct S *, int);
__attribute__((noinline)) double get(struct S *m, int i) { return m->data[i]; }
getter volatile pick = get;
__attribute__((noinline)) double mid(struct S *m, int i) {
  getter g = pick;
  return 2.0 * g(m, i);
}

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
  fz_check("df/dx", __enzyme_autodiff((void *)f, x), 24.0 * x, 1e-12);
  free(G.data);
  return fz_finish();
}
