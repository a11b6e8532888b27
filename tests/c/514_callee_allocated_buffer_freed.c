// OPT: O0 O2 O3
// A buffer a noinline "constructor" allocates into a local object, used, then freed by
// the differentiated function itself: the replay of the allocation (in the constructor's
// reverse) frees the buffer's shadow, so the function's own deferred free must not free
// it again. It did (it took the pointer for memory the caller handed over, because the
// function itself calls no allocator): "double free detected" at every level, and in
// Eigen's tensor convolution (an evaluator allocating its kernel buffer into a local
// evaluator). A buffer the caller hands over (enzyme_dup) is still freed with its shadow
// (tests/c/309). Oracles: analytic gradient and finite differences; the C library aborts
// the program on the double free.
#include <stdlib.h>

#include "fz_test.h"

extern int enzyme_dup, enzyme_const;

typedef struct {
  double *buf;
  int n;
} Work;

__attribute__((noinline)) void work_init(Work *w, int n) {
  w->buf = (double *)malloc(n * sizeof(double));
  w->n = n;
}

double f(const double *x, int n) {
  Work w;
  work_init(&w, n);
  for (int i = 0; i < n; i++)
    w.buf[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w.buf[i] * sin(x[i]);
  free(w.buf);
  return s;
}

static const double *fd_x;
static double f_at(double xi) {
  double y[4];
  for (int k = 0; k < 4; k++)
    y[k] = fd_x[k];
  y[1] = xi;
  return f(y, 4);
}

int main(void) {
  double x[4] = {0.3, -1.2, 2.0, 0.7}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++)
    fz_check("df/dx analytic", dx[i], 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]), 1e-12);
  fd_x = x;
  fz_check("df/dx1 finite differences", dx[1], fz_fd1(f_at, x[1]), 1e-6);
  return fz_finish();
}
