// OPT: O0 O2
// enz37: scratch from posix_memalign and aligned_alloc beside an active buffer grown by
// realloc (capacity doubling) in a loop, as a signal-processing user writes it: samples
// x[k % n] * sin(x[(k+1) % n]) appended one by one, prefix sums of their squares in a
// 64-byte-aligned scratch, weights from the prefix sums in a 32-byte-aligned one, then a
// weighted sum. Every buffer is freed inside. Oracles: central differences of the
// primal, and forward mode against reverse (<grad, v> for two directions).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

double f(const double *x, int n, int m) {
  int cap = 2, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int k = 0; k < m; k++) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof(double));
    }
    buf[len++] = x[k % n] * sin(x[(k + 1) % n]);
  }
  double *pre = NULL;
  if (posix_memalign((void **)&pre, 64, (len + 1) * sizeof(double)) != 0) return -1;
  pre[0] = 0;
  for (int k = 0; k < len; k++) pre[k + 1] = pre[k] + buf[k] * buf[k];
  size_t bytes = (len * sizeof(double) + 31) / 32 * 32;
  double *w = aligned_alloc(32, bytes);
  for (int k = 0; k < len; k++) w[k] = sqrt(pre[k + 1] + 1.0) / (1 + k);
  double s = 0;
  for (int k = 0; k < len; k++) s += w[k] * buf[k];
  free(w);
  free(pre);
  free(buf);
  return s;
}

struct ctx { double *x; int n, m; };
static double eval(void *p) {
  struct ctx *c = p;
  return f(c->x, c->n, c->m);
}

int main(void) {
  enum { N = 5, M = 37 };
  double x[N], dx[N], g[N];
  fz_seed(1418);
  fz_fill(x, N, -1.2, 1.4);
  struct ctx c = {x, N, M};
  fz_fd_grad(eval, &c, x, N, g);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, M);
  fz_check_arr("reverse grad vs central differences", dx, g, N, 1e-6);
  for (int d = 0; d < 2; d++) {
    double v[N], want = 0;
    fz_fill(v, N, -1, 1);
    for (int i = 0; i < N; i++) want += dx[i] * v[i];
    double jv = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N, enzyme_const, M);
    fz_check("forward <grad, v> = reverse", jv, want, 1e-11);
  }
  return fz_finish();
}
