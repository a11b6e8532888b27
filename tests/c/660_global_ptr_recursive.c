// OPT: O0 O1 O2 O3
// The global struct of 656 handed to mutually recursive helpers below a first call:
// f -> sum(&G, n) -> even(m, k) <-> odd(m, k), each reading m->data[k]. The pairs
// (function, parameter) that may receive the global form a cycle (even -> odd -> even);
// global_args.rs's worklist visits each pair once. Before, the reverse sweep crashed
// writing through the null shadow of G.data; now the program stops with the message.
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

__attribute__((noinline)) double odd(struct S *m, int k, double x);
__attribute__((noinline)) double even(struct S *m, int k, double x) {
  if (k < 0) return 0.0;
  return m->data[k] * x + odd(m, k - 1, x);
}
__attribute__((noinline)) double odd(struct S *m, int k, double x) {
  if (k < 0) return 0.0;
  return m->data[k] * x * x + even(m, k - 1, x);
}
__attribute__((noinline)) double sum(struct S *m, double x) { return even(m, m->n - 1, x); }

double f(double x) { return sum(&G, x); }

int main(void) {
  G.n = 5;
  G.data = malloc(5 * sizeof(double));
  for (int i = 0; i < 5; i++) G.data[i] = 1.0 + i;
  double x = 1.3;
  fz_check("df/dx", __enzyme_autodiff((void *)f, x), fz_fd1(f, x), 1e-6);
  free(G.data);
  return fz_finish();
}
