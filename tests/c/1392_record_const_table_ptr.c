// OPT: O0 O1 O2 O3
// VARIANTS: all
// rec36: a context struct {const double *w; double scale; double *out; int n;} whose
// constant pointer does not come from an `enzyme_const` parameter: (1) a constant global
// table's address, (2) read out of a constant table of pointers, (3) a field of a
// constant struct passed by pointer (`hd->tab`), (4) returned by a noinline function
// given no pointer, (5) an address computed from a constant struct's field. Built on the
// stack, passed by value or copied into a heap context a noinline kernel reads back.
// Before rec36 the shadow of the field was null and the kernel's reverse sweep added
// w[i]'s adjoint through it (SIGSEGV at every level); runtime activity now makes the
// pointer its own shadow and guards the kernel's accesses. Oracles: out = s w x,
// f = sum(out^2): d/dx_i = 2 s^2 w_i^2 x_i, d/ds = 2 s sum (w_i x_i)^2 (analytic),
// central finite differences, the tangent for (vx, vs = 0.7) as the dot product with
// the gradient.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
enum { N = 4 };
typedef struct { const double *w; double scale; double *out; int n; } ctx;
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75};
typedef struct { const double *tab; int n; } holder;
static const holder HOLD = {TABLE, N};
static const double *const PTRS[2] = {TABLE, TABLE + 1};
__attribute__((noinline)) const double *get_table(int k) { return TABLE + k; }

__attribute__((noinline)) void apply(ctx c, const double *x) {
  for (int i = 0; i < c.n; i++) c.out[i] = c.scale * c.w[i] * x[i];
}
__attribute__((noinline)) void apply_h(const ctx *c, const double *x) {
  for (int i = 0; i < c->n; i++) c->out[i] = c->scale * c->w[i] * x[i];
}
static double sumsq(const double *o, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += o[i] * o[i];
  return t;
}
/* 1: constant global's address */
double f_glob(const double *x, double *out, double s, int n) {
  ctx c = {TABLE, s, out, n};
  apply(c, x);
  return sumsq(out, n);
}
/* 2: read out of a constant table of pointers */
double f_tab(const double *x, double *out, double s, int n) {
  ctx c = {PTRS[0], s, out, n};
  ctx *h = malloc(sizeof *h);
  *h = c;
  apply_h(h, x);
  free(h);
  return sumsq(out, n);
}
/* 3: field of a constant struct passed by pointer */
double f_hold(const holder *hd, const double *x, double *out, double s, int n) {
  ctx c = {hd->tab, s, out, n};
  apply(c, x);
  return sumsq(out, n);
}
/* 4: returned by an inactive call */
double f_call(const double *x, double *out, double s, int n) {
  ctx c = {get_table(0), s, out, n};
  apply(c, x);
  return sumsq(out, n);
}
/* 5: GEP */
double f_gep(const double *x, double *out, double s, int n) {
  ctx c = {&HOLD.tab[0] , s, out, n};
  ctx *h = malloc(sizeof *h);
  *h = c;
  apply_h(h, x);
  free(h);
  return sumsq(out, n);
}
static double X[N], S;
#define E(F) static double e_##F(void *x) { double o[N]; return F(x, o, S, N); }
E(f_glob) E(f_tab) E(f_call) E(f_gep)
static double e_f_hold(void *x) { double o[N]; return f_hold(&HOLD, x, o, S, N); }
int main(void) {
  fz_seed(1392);
  fz_fill(X, N, -1, 1);
  S = 1.3;
#define CHECK(NAME, want, dx, ds, ds_want, E, t, tw)                                     \
  do { double fd[N];                                                                      \
    fz_check_arr(NAME " d/dx", dx, want, N, 1e-12);                                      \
    fz_check(NAME " d/ds", ds, ds_want, 1e-12);                                           \
    fz_fd_grad(E, X, X, N, fd);                                                           \
    fz_check_arr(NAME " finite differences", dx, fd, N, 1e-6);                           \
    fz_check(NAME " tangent", t, tw, 1e-12); } while (0)
#define PREP                                                                             \
    double dx[N] = {0}, out[N], dout[N] = {0}, want[N], ds_want = 0;                     \
    double vx[N] = {1, -2, 0.5, 3}, o2[N], do2[N] = {0};                                 \
    for (int i = 0; i < N; i++) {                                                        \
      double o = S * TABLE[i] * X[i];                                                    \
      want[i] = 2 * o * S * TABLE[i];                                                    \
      ds_want += 2 * o * TABLE[i] * X[i];                                                \
    }                                                                                    \
    double tw = 0.7 * ds_want; for (int i = 0; i < N; i++) tw += want[i] * vx[i];
#define RUN(F)                                                                          \
  do { PREP                                                                              \
    double ds = __enzyme_autodiff((void *)F, enzyme_dup, X, dx, enzyme_dup, out, dout, S, enzyme_const, N); \
    double t = __enzyme_fwddiff((void *)F, enzyme_dup, X, vx, enzyme_dup, o2, do2, S, 0.7, enzyme_const, N); \
    CHECK(#F, want, dx, ds, ds_want, e_##F, t, tw); } while (0)
  RUN(f_glob);
  RUN(f_tab);
  RUN(f_call);
  RUN(f_gep);
  do { PREP
    double ds = __enzyme_autodiff((void *)f_hold, enzyme_const, &HOLD, enzyme_dup, X, dx, enzyme_dup, out, dout, S, enzyme_const, N);
    double t = __enzyme_fwddiff((void *)f_hold, enzyme_const, &HOLD, enzyme_dup, X, vx, enzyme_dup, o2, do2, S, 0.7, enzyme_const, N);
    CHECK("f_hold", want, dx, ds, ds_want, e_f_hold, t, tw); } while (0);
  return fz_finish();
}
