// OPT: O0 O2
// VARIANTS: all
// rec35: records returned by value in registers from noinline makers, {const double *w;
// double *out} (a constant pointer next to a differentiable one) and {const double *w;
// double s} (a constant pointer next to a float), then passed by value to a kernel that
// takes the pointers out. clang -O0 returns them as `{ptr, ptr}` / `{ptr, double}`
// loaded whole and takes the fields out with `extractvalue` in the caller. Oracles: out =
// s w^2 x, f = sum(out^2): d/dx_i = 2 s^2 w_i^4 x_i, d/ds = 2 s sum (w_i^2 x_i)^2
// (analytic), central finite differences, the tangent for (vx, vs); w unchanged.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };
typedef struct { const double *w; double *out; } pp;
typedef struct { const double *w; double s; } pf;

__attribute__((noinline)) pp make_pp(const double *w, double *out) { pp r = {w, out}; return r; }
__attribute__((noinline)) pf make_pf(const double *w, double s) { pf r = {w, s}; return r; }
__attribute__((noinline)) void use(pp a, pf b, const double *x, int n) {
  for (int i = 0; i < n; i++) a.out[i] = b.s * a.w[i] * b.w[i] * x[i];
}
double f(const double *w, const double *x, double *out, double s, int n) {
  pp a = make_pp(w, out);
  pf b = make_pf(w, s);
  use(a, b, x, n);
  double t = 0;
  for (int i = 0; i < n; i++) t += out[i] * out[i];
  return t;
}
static double W[N], X[N], S;
static double e(void *x) { double o[N]; return f(W, x, o, S, N); }
int main(void) {
  fz_seed(1391);
  fz_fill(W, N, -1, 1);
  fz_fill(X, N, -1, 1);
  S = 1.3;
  double W0[N];
  for (int i = 0; i < N; i++) W0[i] = W[i];
  double dx[N] = {0}, out[N], dout[N] = {0}, want[N], fd[N], ds_want = 0;
  double ds = __enzyme_autodiff((void *)f, enzyme_const, W, enzyme_dup, X, dx, enzyme_dup, out,
                                dout, S, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double o = S * W[i] * W[i] * X[i];
    want[i] = 2 * o * S * W[i] * W[i];
    ds_want += 2 * o * W[i] * W[i] * X[i];
  }
  fz_check_arr("d/dx", dx, want, N, 1e-12);
  fz_check("d/ds", ds, ds_want, 1e-12);
  fz_fd_grad(e, X, X, N, fd);
  fz_check_arr("finite differences", dx, fd, N, 1e-6);
  double vx[N] = {1, -2, 0.5, 3}, o2[N], do2[N] = {0}, tw = 0.7 * ds_want;
  double t = __enzyme_fwddiff((void *)f, enzyme_const, W, enzyme_dup, X, vx, enzyme_dup, o2, do2,
                              S, 0.7, enzyme_const, N);
  for (int i = 0; i < N; i++) tw += want[i] * vx[i];
  fz_check("tangent", t, tw, 1e-12);
  fz_check_arr("w unchanged", W, W0, N, 0);
  return fz_finish();
}
