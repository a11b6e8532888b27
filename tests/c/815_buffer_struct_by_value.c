// OPT: O0 O1 O2 O3
// Scratch memory handed out inside a struct returned by value, the way
// `std::get_temporary_buffer` returns `{T *, ptrdiff_t}`: `buf_new(n)` (noinline) returns
// `struct buf {double *data; long n;}` from `malloc` (`{ptr, i64}` in registers), and
// `buf_pair(n)` builds its result through a helper taking the parts by address (as a
// C++ pair constructor does at -O0). The buffers receive active values and are reduced,
// then freed. Regression for the fresh-memory rule through aggregate results (sweep17:
// the buffer got no shadow and the derivative crashed at -O0, cxx/138). Oracle: the
// analytic gradient and central finite differences.
#include "fz_test.h"
#include <stdlib.h>

#define N 6

struct buf {
  double *data;
  long n;
};

__attribute__((noinline)) struct buf buf_new(long n) {
  struct buf b;
  b.data = (double *)malloc(n * sizeof(double));
  b.n = b.data ? n : 0;
  return b;
}

__attribute__((noinline)) static void buf_init(struct buf *b, double **p, long *n) {
  b->data = *p;
  b->n = *n;
}

__attribute__((noinline)) struct buf buf_pair(long n) {
  struct buf b;
  double *p = (double *)malloc(n * sizeof(double));
  long m = p ? n : 0;
  buf_init(&b, &p, &m);
  return b;
}

double energy(const double *x) {
  struct buf a = buf_new(N);
  struct buf c = buf_pair(N);
  for (long i = 0; i < a.n; i++) a.data[i] = x[i] * x[i];
  for (long i = 0; i < c.n; i++) c.data[i] = sin(x[i]) + a.data[(i + 1) % N];
  double s = 0;
  for (long i = 0; i < c.n; i++) s += (i + 1) * c.data[i] * a.data[i];
  free(a.data);
  free(c.data);
  return s;
}

static double eval(void *ctx) { return energy((const double *)ctx); }

int main(void) {
  double x[N] = {0.3, -1.1, 0.8, 1.4, -0.6, 0.25};
  double dx[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx);
  // s = sum_i (i+1) (sin x_i + x_{i+1}^2) x_i^2
  double want[N] = {0};
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    double c = sin(x[i]) + x[j] * x[j];
    want[i] += (i + 1) * (cos(x[i]) * x[i] * x[i] + c * 2 * x[i]);
    want[j] += (i + 1) * 2 * x[j] * x[i] * x[i];
  }
  fz_check_arr("analytic", dx, want, N, 1e-10);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("fd", dx, fd, N, 1e-6);
  return fz_finish();
}
