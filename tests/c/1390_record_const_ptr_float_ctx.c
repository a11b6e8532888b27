// OPT: O0 O2
// VARIANTS: all
// rec35: a context struct {const double *w; double scale; double *out; int n;} holding an
// `enzyme_const` pointer next to a float and a differentiable pointer, built on the
// stack and (a) passed by value to a noinline kernel, (b) copied whole into a heap
// context the kernel reads back. numba and unoptimized Rust store such records whole
// (tests/filetests/runtime_activity_record_fields.ll: the shadow record had a null in
// the constant's field, SIGSEGV); clang stores them field by field or with memcpy, where
// runtime activity takes the constant pointer stored alone over. Checked at -O0, -O2 and
// before optimization, reverse and forward. Oracles: out = s w x, f = sum(out^2):
// d/dx_i = 2 s^2 w_i^2 x_i, d/ds = 2 s sum (w_i x_i)^2 (analytic), central finite
// differences, the tangent for (vx, vs) as the dot product with the gradient; w unchanged.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };
typedef struct { const double *w; double scale; double *out; int n; } ctx;

__attribute__((noinline)) void apply(ctx c, const double *x) {
  for (int i = 0; i < c.n; i++) c.out[i] = c.scale * c.w[i] * x[i];
}
__attribute__((noinline)) void apply_h(const ctx *c, const double *x) {
  for (int i = 0; i < c->n; i++) c->out[i] = c->scale * c->w[i] * x[i];
}
double f_val(const double *w, const double *x, double *out, double s, int n) {
  ctx c = {w, s, out, n};
  apply(c, x);
  double t = 0;
  for (int i = 0; i < n; i++) t += out[i] * out[i];
  return t;
}
double f_heap(const double *w, const double *x, double *out, double s, int n) {
  ctx c = {w, s, out, n};
  ctx *h = malloc(sizeof *h);
  *h = c;
  apply_h(h, x);
  free(h);
  double t = 0;
  for (int i = 0; i < n; i++) t += out[i] * out[i];
  return t;
}
static double W[N], X[N], S;
static double e_val(void *x) { double o[N]; return f_val(W, x, o, S, N); }
static double e_heap(void *x) { double o[N]; return f_heap(W, x, o, S, N); }
int main(void) {
  fz_seed(1390);
  fz_fill(W, N, -1, 1);
  fz_fill(X, N, -1, 1);
  S = 1.3;
  double W0[N];
  for (int i = 0; i < N; i++) W0[i] = W[i];
/* Reverse and forward mode of F against the analytic gradient and finite differences. */
#define RUN(F, E)                                                                        \
  do {                                                                                   \
    double dx[N] = {0}, out[N], dout[N] = {0}, want[N], fd[N], ds_want = 0;              \
    double ds = __enzyme_autodiff((void *)F, enzyme_const, W, enzyme_dup, X, dx,         \
                                  enzyme_dup, out, dout, S, enzyme_const, N);            \
    for (int i = 0; i < N; i++) {                                                        \
      double o = S * W[i] * X[i];                                                        \
      want[i] = 2 * o * S * W[i];                                                        \
      ds_want += 2 * o * W[i] * X[i];                                                    \
    }                                                                                    \
    fz_check_arr(#F " d/dx", dx, want, N, 1e-12);                                        \
    fz_check(#F " d/ds", ds, ds_want, 1e-12);                                            \
    fz_fd_grad(E, X, X, N, fd);                                                          \
    fz_check_arr(#F " finite differences", dx, fd, N, 1e-6);                             \
    double vx[N] = {1, -2, 0.5, 3}, o2[N], do2[N] = {0}, tw = 0.7 * ds_want;             \
    double t = __enzyme_fwddiff((void *)F, enzyme_const, W, enzyme_dup, X, vx,           \
                                enzyme_dup, o2, do2, S, 0.7, enzyme_const, N);           \
    for (int i = 0; i < N; i++) tw += want[i] * vx[i];                                   \
    fz_check(#F " tangent", t, tw, 1e-12);                                               \
  } while (0)
  RUN(f_val, e_val);
  RUN(f_heap, e_heap);
  fz_check_arr("w unchanged", W, W0, N, 0);
  return fz_finish();
}
