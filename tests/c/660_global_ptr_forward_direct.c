// OPT: O0 O1 O2 O3
// Forward mode (__enzyme_fwddiff) reading a pointer field of a global struct that `main`
// set (G.data = malloc(...)) in the differentiated function itself: the tangent of G.data
// comes from the global's zero shadow, and reading tangents through it crashed
// (segmentation fault at O0, a silent abort at O2). The program now stops with the
// message, as reverse mode does (tests/c/660_global_ptr_forward for the callee case).
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

double g(double x) {
  double s = 0;
  for (int i = 0; i < G.n; i++) s += G.data[i] * x * x;
  return s;
}

int main(void) {
  G.n = 3;
  G.data = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) G.data[i] = i + 1;
  double x = 2.0;
  fz_check("dg/dx", __enzyme_fwddiff((void *)g, x, 1.0), 12.0 * x, 1e-12);
  free(G.data);
  return fz_finish();
}
