// OPT: O0 O1 O2 O3
// Split mode for a function with a double result, as Enzyme's split-mode users write it:
// __enzyme_augmentfwd declared to return struct { void *tape; double ret; }, the tape
// kept while other work happens, then __enzyme_reverse with the result's adjoint (dret)
// and the tape; a batch of such tapes alive at once, reversed in a different order;
// __enzyme_augmentsize checked against enzyme_allocated memory for the same function.
// Oracle: analytic gradient.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_tape, enzyme_allocated;
typedef struct { void *tape; double ret; } aug_t;
extern aug_t __enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern double __enzyme_augmentfwd_d(void *, ...); /* with enzyme_tape: the result */
extern size_t __enzyme_augmentsize(void *, ...);

/* Rosenbrock-like chain over a buffer, scaled by an active scalar */
double chain(const double *x, int n, double s) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return s * f + sin(s);
}

static void chain_grad(const double *x, int n, double s, double w, double *gx, double *gs) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += 100 * a * a + b * b;
    gx[i] += w * s * (-400 * a * x[i] - 2 * b);
    gx[i + 1] += w * s * 200 * a;
  }
  *gs += w * (f + cos(s));
}

int main(void) {
  enum { K = 4, N = 6 };
  double x[K][N], dx[K][N], want[K][N], ds[K], wants[K] = {0}, s[K] = {0.5, 1.5, -0.7, 2.0};
  double w[K] = {1.0, -2.0, 0.5, 3.0};
  aug_t a[K];
  fz_seed(4);
  for (int k = 0; k < K; k++) {
    fz_fill(x[k], N, -1.5, 1.5);
    fz_zero(dx[k], N);
    fz_zero(want[k], N);
    a[k] = __enzyme_augmentfwd((void *)chain, enzyme_dup, x[k], dx[k], enzyme_const, N,
                               enzyme_out, s[k]);
    char b[32];
    snprintf(b, sizeof b, "primal %d", k);
    fz_check(b, a[k].ret, chain(x[k], N, s[k]), 1e-14);
  }
  const int order[K] = {2, 0, 3, 1};
  for (int j = 0; j < K; j++) {
    int k = order[j];
    ds[k] = __enzyme_reverse((void *)chain, enzyme_dup, x[k], dx[k], enzyme_const, N, enzyme_out,
                             s[k], w[k], a[k].tape);
    chain_grad(x[k], N, s[k], w[k], want[k], &wants[k]);
    char b[32];
    snprintf(b, sizeof b, "ds[%d]", k);
    fz_check(b, ds[k], wants[k], 1e-12);
    snprintf(b, sizeof b, "dx[%d]", k);
    fz_check_arr(b, dx[k], want[k], N, 1e-12);
  }
  size_t sz = __enzyme_augmentsize((void *)chain, enzyme_dup, enzyme_const, enzyme_out);
  fz_check("augmentsize is a sane number", sz < (1u << 20), 1, 0);
  char *buf = aligned_alloc(64, (sz + 63) / 64 * 64 + 64);
  double y[N], dy[N] = {0}, wy[N] = {0}, wsy = 0;
  memcpy(y, x[0], sizeof y);
  double fy = __enzyme_augmentfwd_d((void *)chain, enzyme_dup, y, dy, enzyme_const, N,
                                    enzyme_out, 0.9, enzyme_allocated, sz, enzyme_tape,
                                    (void *)buf);
  fz_check("allocated tape: primal result", fy, chain(y, N, 0.9), 1e-14);
  double dsy = __enzyme_reverse((void *)chain, enzyme_dup, y, dy, enzyme_const, N, enzyme_out, 0.9,
                                1.0, enzyme_allocated, sz, enzyme_tape, (void *)buf);
  chain_grad(y, N, 0.9, 1.0, wy, &wsy);
  fz_check("allocated tape: ds", dsy, wsy, 1e-12);
  fz_check_arr("allocated tape: dx", dy, wy, N, 1e-12);
  free(buf);
  return fz_finish();
}
