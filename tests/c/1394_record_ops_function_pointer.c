// OPT: O0 O1 O2 O3
// VARIANTS: all
// rec36: an `ops` struct {double (*act)(double); const double *w; double s; double *out;
// int n} holding a function pointer, a constant global table's address, a float and the
// output, built on the stack; the noinline kernel calls the function pointer on each
// product (out_i = act(s w_i x_i), act = cube). Before rec36 the table pointer's shadow
// in the struct was null: SIGSEGV at -O0 and -O2. Oracles: f = sum(out):
// d/dx_i = 3 u_i^2 s w_i, d/ds = sum 3 u_i^2 w_i x_i with u_i = s w_i x_i (analytic),
// central finite differences, the tangent for (vx, vs = 0.7) as the dot product with the
// gradient.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75};
typedef struct { double (*act)(double); const double *w; double s; double *out; int n; } ops;
__attribute__((noinline)) static double cube(double v) { return v * v * v; }
__attribute__((noinline)) void apply_ops(const ops *o, const double *x) {
  for (int i = 0; i < o->n; i++) o->out[i] = o->act(o->s * o->w[i] * x[i]);
}
double f_ops(const double *x, double *out, double s, int n) {
  ops o = {cube, TABLE, s, out, n};
  apply_ops(&o, x);
  double t = 0;
  for (int i = 0; i < n; i++) t += out[i];
  return t;
}
static double X[N], S = 1.3;
static double e_ops(void *x) { double o[N]; return f_ops(x, o, S, N); }
int main(void) {
  fz_seed(1393);
  fz_fill(X, N, -1, 1);
  double dx[N] = {0}, out[N], dout[N] = {0}, want[N], ds_want = 0, fd[N];
  for (int i = 0; i < N; i++) { double u = S * TABLE[i] * X[i]; want[i] = 3 * u * u * S * TABLE[i]; ds_want += 3 * u * u * TABLE[i] * X[i]; }
  double ds = __enzyme_autodiff((void *)f_ops, enzyme_dup, X, dx, enzyme_dup, out, dout, S, enzyme_const, N);
  fz_check_arr("d/dx", dx, want, N, 1e-12); fz_check("d/ds", ds, ds_want, 1e-12);
  fz_fd_grad(e_ops, X, X, N, fd); fz_check_arr("fd", dx, fd, N, 1e-6);
  double vx[N] = {1, -2, 0.5, 3}, o2[N], do2[N] = {0}, tw = 0.7 * ds_want;
  for (int i = 0; i < N; i++) tw += want[i] * vx[i];
  double t = __enzyme_fwddiff((void *)f_ops, enzyme_dup, X, vx, enzyme_dup, o2, do2, S, 0.7, enzyme_const, N);
  fz_check("tangent", t, tw, 1e-12);
  return fz_finish();
}
