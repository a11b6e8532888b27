// OPT: O0 O2
// A function that allocates its output into a struct the user passes (a noinline helper
// sets out->data = malloc(...)), fills it from x and returns a sum. The user differentiates
// it with the struct and its shadow duplicated and afterwards frees both buffers, as with
// Enzyme. Oracle: analytic gradient (d/dx_i sum x_i^2 = 2 x_i); the C library aborts on a
// double free.
#include <stdlib.h>

#include "fz_test.h"

typedef struct {
  double *data;
  int n;
} Buf;

__attribute__((noinline)) void alloc_into(Buf *b, int n) {
  b->data = (double *)malloc(n * sizeof(double));
  b->n = n;
}

double f(Buf *out, const double *x, int n) {
  alloc_into(out, n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    out->data[i] = x[i] * x[i];
    s += out->data[i];
  }
  return s;
}

int main(void) {
  double x[3] = {1.0, -2.0, 0.5}, dx[3] = {0};
  Buf out = {0, 0}, dout = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, &out, &dout, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    fz_check("df/dx analytic", dx[i], 2 * x[i], 1e-12);
  free(out.data);
  free(dout.data);
  return fz_finish();
}
