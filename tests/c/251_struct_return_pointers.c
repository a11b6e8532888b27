// OPT: O0 O1 O2 O3
// Functions returning a struct that holds a pointer into differentiable memory, by
// value ({ptr, i64} in registers: what a Rust slice or Box<[f64]> is): a fresh malloc'd
// buffer computed from the input, and a window into the input itself. Reverse mode lost
// these derivatives silently (activity did not follow shadows through the returned
// aggregate; the gradient was all zeros) until aggregates carried shadows.
#include "fz_test.h"

typedef struct { double *p; long n; } Span;

__attribute__((noinline)) Span squares(const double *x, long n) {
  Span s;
  s.p = malloc(n * sizeof(double));
  s.n = n;
  for (long i = 0; i < n; i++) s.p[i] = x[i] * x[i];
  return s;
}

__attribute__((noinline)) Span tail_of(double *x, long n, long k) {
  Span s = {x + k, n - k};
  return s;
}

double f(const double *x, long n) {
  Span a = squares(x, n);
  Span t = tail_of(a.p, a.n, 1);
  double s = 0;
  for (long i = 0; i < t.n; i++) s += t.p[i] * x[i];
  for (long i = 0; i < a.n; i++) s += sin(a.p[i]);
  free(a.p);
  return s;
}

#define N 6
struct ctx { double *x; };
static double eval(void *p) { struct ctx *c = p; return f(c->x, N); }

int main(void) {
  fz_seed(251);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1.5, 1.5);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, (long)N);
  /* f = sum_{i<N-1} x[i+1]^2 x[i] + sum_i sin(x[i]^2) */
  for (int i = 0; i < N; i++) {
    want[i] = 2 * x[i] * cos(x[i] * x[i]);
    if (i < N - 1) want[i] += x[i + 1] * x[i + 1];
    if (i > 0) want[i] += 2 * x[i] * x[i - 1];
  }
  fz_check_arr("dx", dx, want, N, 1e-12);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx vs fd", dx, fd, N, 1e-6);
  return fz_finish();
}
