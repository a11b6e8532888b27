// OPT: O2
// IGNORE: run-time stop "ferrozyme: bytes of unknown type were copied (memcpy/memmove) and both the copy and the original carry a derivative or a pointer's shadow; they cannot be added without knowing the float type. Build the container outside or give it a type." at `memcpy(tmp + 3, b->v + 1, ...)`: type analysis merges the doubles the loop reads from `b->v` at run-time indices ("double at every offset") with the trailing `int n` into a conflict, and the in-place `memmove` of `b->v` shifts that conflict over every element; a clear stop, never a wrong number
// probe46: a record `{ double v[8]; int n; }` filled from the input, shifted in place by
// `memmove`, and copied out into a local array by run-time lengths. The same copies
// without the in-place shift pass (tests/c/1525: a copy's facts are bounded by the objects
// it copies between). Oracle: central differences.
#include "fz_test.h"

typedef struct { double v[8]; int n; } Buf;

__attribute__((noinline)) static double f(const double *x, int n) {
  Buf *b = malloc(sizeof *b);
  b->n = n;
  memcpy(b->v, x, n * sizeof(double));
  memmove(b->v + 1, b->v, (n - 1) * sizeof(double));
  double tmp[8];
  for (int i = 0; i < 8; i++) tmp[i] = 1.0;
  memcpy(tmp + 3, b->v + 1, (n - 3) * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += tmp[i] * b->v[i] + sin(b->v[i]);
  free(b);
  return s;
}

static double x[8];
static int nn;
static double ev(void *c) { (void)c; return f(x, nn); }

int main(int argc, char **argv) {
  (void)argv;
  nn = 5 + argc;
  fz_seed(6);
  fz_fill(x, 8, -1, 1);
  double dx[8] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, nn);
  for (int i = 0; i < nn; i++) fz_check("dx", dx[i], fz_fd_ptr(ev, 0, &x[i]), 1e-6);
  return fz_finish();
}
