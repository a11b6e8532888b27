// OPT: O0 O1 O2 O3
// A pointer to a field of a global struct (&G.data, the field `main` set to malloc'ed
// data) handed down three calls: f -> outer(&G.data) -> middle(pp) -> inner(pp), inner
// reads (*pp)[i]. Before, only a callee of a call passing the global itself was guarded,
// and the reverse sweep crashed writing through the null shadow of G.data; now the
// program stops with the message (global_args.rs follows parameters at any depth,
// including through clang -O0's local copy of each parameter).
// probe40: the pointer `main` stores into G (malloc's memory) now gets a zeroed shadow
// of the same size where it is stored (outside_allocations.rs, Enzyme's implicit global
// shadow), so the derivative is computed instead of the stop; the stop stays for a
// pointer to other memory (tests/c/106, filetests global_pointer_shadow_guard*).
#include "fz_test.h"

struct S {
  int n;
  double *data;
};
struct S G;

__attribute__((noinline)) double inner(double **pp, int i) { return (*pp)[i]; }
__attribute__((noinline)) double middle(double **pp, int i) { return inner(pp, i) + 1.0; }
__attribute__((noinline)) double outer(double **pp, int i) { return middle(pp, i) * 0.5; }

double f(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) s += outer(&G.data, i) * sin(x);
  return s;
}

int main(void) {
  G.n = 4;
  G.data = malloc(4 * sizeof(double));
  for (int i = 0; i < 4; i++) G.data[i] = i - 1.5;
  double x = 0.3;
  fz_check("df/dx", __enzyme_autodiff((void *)f, x), fz_fd1(f, x), 1e-6);
  free(G.data);
  return fz_finish();
}
