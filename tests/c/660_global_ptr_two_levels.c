// OPT: O0 O1 O2 O3
// CFLAGS: -g
// 656's global state (a struct whose pointer field `main` set to malloc'ed data) handed
// down two calls: f calls layer(&G), layer(m) calls dot(m, x), dot reads m->w[i]. The
// guard on pointers read from the global's zero shadow looked at one level of call sites
// only, so dot's load of m->w was not guarded and the reverse sweep wrote adjoints through
// the null shadow: a segmentation fault. global_args.rs now follows parameters at any
// depth (filetest global_pointer_shadow_guard_two_levels); the program stops with the
// message. Declared __enzyme_inactive_global the same state differentiates (tests/c/661).
// With -g the message names the line of `m->w[i]` (26) at every -O level: at -O2 LICM hoists the load of
// m->w out of the loop and drops its location, so the message takes the line of the
// accesses through the loaded pointer (global_args.rs load_loc).
// probe40: the pointer `main` stores into G (malloc's memory) now gets a zeroed shadow
// of the same size where it is stored (outside_allocations.rs, Enzyme's implicit global
// shadow), so the derivative is computed instead of the stop; the stop stays for a
// pointer to other memory (tests/c/106, filetests global_pointer_shadow_guard*).
#include "fz_test.h"

struct Model {
  double *w;
  int n;
};
struct Model G;

__attribute__((noinline)) double dot(struct Model *m, double x) {
  double s = 0;
  for (int i = 0; i < m->n; i++) s += m->w[i] * x;
  return s;
}
__attribute__((noinline)) double layer(struct Model *m, double x) { return tanh(dot(m, x)); }

double loss(double x) { return layer(&G, x) * x; }

int main(void) {
  G.n = 3;
  G.w = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.w[i] = 0.1 * (i + 1);
  double x = 0.7;
  fz_check("dloss/dx", __enzyme_autodiff((void *)loss, x), fz_fd1(loss, x), 1e-6);
  free(G.w);
  return fz_finish();
}
