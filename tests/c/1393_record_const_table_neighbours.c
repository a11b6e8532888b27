// OPT: O0 O1 O2 O3
// VARIANTS: all
// rec36: neighbours of tests/c/1392 (a constant global table's address kept in a record
// next to floats): (1) an `ops` struct holding a function pointer, the table, a float
// and the output; (2) a record nested in a record passed by value; (3) an array of two
// such records; (4) a record copied from a constant global (`pair c = P0;`: clang -O0
// copies it with memcpy, -O2 stores the table's address as a `ptrtoint` integer);
// (5) a record returned by value from a differentiated noinline callee (clang -O0
// returns `{ptr, double}`, whose first field SSA construction folds into a constant
// record). Each crashed before rec36 (null shadow of the table pointer, or adjoints
// added into the read-only table). Oracles as in 1392: analytic gradient, central
// finite differences, the tangent as the dot product with the gradient.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75};
typedef struct { const double *w; double s; } pair;
typedef struct { double (*act)(double); const double *w; double s; double *out; int n; } ops;
typedef struct { struct { const double *w; int n; } in; double s; double *out; } outer;
static const pair P0 = {TABLE, 1.0};
__attribute__((noinline)) static double sq(double v) { return v * v; }
static double sumsq(const double *o, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += o[i] * o[i];
  return t;
}
/* 1: ops struct with a function pointer */
__attribute__((noinline)) void apply_ops(const ops *o, const double *x) {
  for (int i = 0; i < o->n; i++) o->out[i] = o->s * o->w[i] * x[i];
}
double f_ops(const double *x, double *out, double s, int n) {
  ops o = {sq, TABLE, s, out, n};
  apply_ops(&o, x);
  return sumsq(out, n);
}
/* 2: nested record */
__attribute__((noinline)) void apply_outer(outer o, const double *x) {
  for (int i = 0; i < o.in.n; i++) o.out[i] = o.s * o.in.w[i] * x[i];
}
double f_outer(const double *x, double *out, double s, int n) {
  outer o = {{TABLE, n}, s, out};
  apply_outer(o, x);
  return sumsq(out, n);
}
/* 3: array of records */
__attribute__((noinline)) void apply_arr(const pair *p, const double *x, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = p[i % 2].s * p[i % 2].w[i] * x[i];
}
double f_arr(const double *x, double *out, double s, int n) {
  pair a[2] = {{TABLE, s}, {TABLE, s}};
  apply_arr(a, x, out, n);
  return sumsq(out, n);
}
/* 4: memcpy from a constant global into an active local */
__attribute__((noinline)) void apply_pair(const pair *p, const double *x, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = p->s * p->w[i] * x[i];
}
double f_copy(const double *x, double *out, double s, int n) {
  pair c = P0;
  c.s = s;
  apply_pair(&c, x, out, n);
  return sumsq(out, n);
}
/* 5: record returned by value from a differentiated callee */
__attribute__((noinline)) pair mk(double s) { pair c = {TABLE, s}; return c; }
double f_ret(const double *x, double *out, double s, int n) {
  pair c = mk(s);
  apply_pair(&c, x, out, n);
  return sumsq(out, n);
}
static double X[N], S;
#define E(F) static double e_##F(void *x) { double o[N]; return F(x, o, S, N); }
E(f_ops) E(f_outer) E(f_arr) E(f_copy) E(f_ret)
int main(void) {
  fz_seed(1393);
  fz_fill(X, N, -1, 1);
  S = 1.3;
#define RUN(F)                                                                          \
  do {                                                             \
    double dx[N] = {0}, out[N], dout[N] = {0}, want[N], ds_want = 0, fd[N];                \
    double vx[N] = {1, -2, 0.5, 3}, o2[N], do2[N] = {0};                                 \
    for (int i = 0; i < N; i++) {                                                        \
      double o = S * TABLE[i] * X[i];                                                    \
      want[i] = 2 * o * S * TABLE[i];                                                    \
      ds_want += 2 * o * TABLE[i] * X[i];                                                \
    }                                                                                    \
    double tw = 0.7 * ds_want; for (int i = 0; i < N; i++) tw += want[i] * vx[i];         \
    double ds = __enzyme_autodiff((void *)F, enzyme_dup, X, dx, enzyme_dup, out, dout, S, enzyme_const, N); \
    fz_check_arr(#F " d/dx", dx, want, N, 1e-12);                                        \
    fz_check(#F " d/ds", ds, ds_want, 1e-12);                                           \
    fz_fd_grad(e_##F, X, X, N, fd);                                                      \
    fz_check_arr(#F " finite differences", dx, fd, N, 1e-6);                            \
    double t = __enzyme_fwddiff((void *)F, enzyme_dup, X, vx, enzyme_dup, o2, do2, S, 0.7, enzyme_const, N); \
    fz_check(#F " tangent", t, tw, 1e-12); } while (0)
  RUN(f_ops);
  RUN(f_outer);
  RUN(f_arr);
  RUN(f_copy);
  RUN(f_ret);
  return fz_finish();
}
