/* hooks_stub.c -- linked into the plain-clang build of a benchmark (bench/run.py), which
 * only times the primal: the Enzyme markers and hooks the program refers to exist, and
 * calling a hook stops the program (no plain-clang build ever computes a gradient). */
#include <stdio.h>
#include <stdlib.h>

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;

static void no_gradient(void) {
  fprintf(stderr, "hooks_stub: a gradient was requested from the plain-clang build\n");
  abort();
}
void __enzyme_autodiff(void *f, ...) {
  (void)f;
  no_gradient();
}
double __enzyme_autodiff_d(void *f, ...) {
  (void)f;
  no_gradient();
  return 0;
}
