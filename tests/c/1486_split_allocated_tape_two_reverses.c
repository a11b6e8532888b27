// OPT: O0 O1 O2 O3
// probe40: split mode as Enzyme's allocatedtape tests write it: the tape in the caller's
// memory sized by `__enzyme_augmentsize` (a run-time `int`), `__enzyme_reverse` run twice
// on it (`enzyme_nofree`, a Jacobian's rows: the result's seed, then one output's), and
// the primal result returned by `__enzyme_augmentfwd` with its tape. Oracles: central
// differences of the result, the analytic derivative of one output.
#include "fz_test.h"
extern int enzyme_allocated, enzyme_tape, enzyme_nofree, enzyme_primal_return;
extern int __enzyme_augmentsize(void *, ...);
extern void __enzyme_augmentfwd_v(void *, ...);
typedef struct { void *tape; double ret; } aug_t;
extern aug_t __enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);
extern void __enzyme_reverse_v(void *, ...);

double f(const double *x, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] * (i + 1);
    out[i] = sin(v);
    s += v * x[(i + 1) % n];
  }
  return s;
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.1, 0.4, -0.3, 0.9, 0.2}, out[N], dout[N], dx[N];
  int size = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_const, enzyme_dup);
  void *mem = malloc(size > 0 ? size : 1);
  for (int i = 0; i < N; i++) dx[i] = 0, dout[i] = 0;
  __enzyme_augmentfwd_v((void *)f, enzyme_allocated, size, enzyme_tape, mem, enzyme_dup, x, dx,
                        enzyme_const, N, enzyme_dup, out, dout);
  /* seed: the result only; then out[2] only */
  __enzyme_reverse_v((void *)f, enzyme_allocated, size, enzyme_tape, mem, enzyme_nofree,
                     enzyme_dup, x, dx, enzyme_const, N, enzyme_dup, out, dout, 1.0);
  /* oracle: FD of the result */
  for (int j = 0; j < N; j++) {
    double h = 1e-6, xp[N], xm[N], o[N];
    memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);
    xp[j] += h; xm[j] -= h;
    double want = (f(xp, N, o) - f(xm, N, o)) / (2 * h);
    fz_check("split allocated: d result", dx[j], want, 1e-6);
  }
  for (int i = 0; i < N; i++) dx[i] = 0, dout[i] = 0;
  dout[2] = 1.0;
  __enzyme_reverse_v((void *)f, enzyme_allocated, size, enzyme_tape, mem, enzyme_dup, x, dx,
                     enzyme_const, N, enzyme_dup, out, dout, 0.0);
  double v2 = x[2] * x[2] * 3;
  for (int j = 0; j < N; j++)
    fz_check("second reverse on the same tape: d out[2]", dx[j], j == 2 ? cos(v2) * 6 * x[2] : 0, 1e-12);
  free(mem);
  /* the tape returned with the primal */
  for (int i = 0; i < N; i++) dx[i] = 0, dout[i] = 0;
  aug_t a = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_dup, out, dout);
  fz_check("augmentfwd primal", a.ret, f(x, N, out), 1e-14);
  __enzyme_reverse_v((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_dup, out, dout, 2.0, a.tape);
  for (int j = 0; j < N; j++) {
    double h = 1e-6, xp[N], xm[N], o[N];
    memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);
    xp[j] += h; xm[j] -= h;
    fz_check("split returned tape: 2 d result", dx[j], 2 * (f(xp, N, o) - f(xm, N, o)) / (2 * h), 1e-6);
  }
  return fz_finish();
}
