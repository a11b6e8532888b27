// OPT: O0 O2
// probe46: function attributes on the differentiated code as users' libraries carry them:
// a `target_clones("avx2", "default")` kernel (an ifunc: the loader picks a version; its
// call used to be dispatched as a call through a pointer whose address, the PLT entry,
// matched neither version, and the derivative stopped at run time saying it had no
// derivative for the target; now the clone calls the resolver and dispatches on the version
// it returns; also a user's `__attribute__((ifunc("resolver")))`, and in forward and
// split modes), an `optnone` callee, a `weak` definition, an `alias`, `const`/`pure`
// helpers, a `cold` branch, `flatten`. Also Enzyme's struct conventions: __enzyme_fwddiff of
// a function returning a struct of two doubles (the tangent comes back as the struct) and
// enzyme_out on a struct of two doubles passed by value (its adjoint comes back as the
// struct). Oracles: central differences and analytic derivatives. (Differentiating the
// ifunc itself, or enzyme_out on a struct passed in memory, are errors:
// tests/errors/probe46_*.c.)
#include "fz_test.h"

__attribute__((optnone, noinline)) double smooth_sq(double x) {
  double t = x;
  for (int i = 0; i < 3; i++) t = t * 0.5 + x * 0.5;
  return t * sin(x);
}
__attribute__((weak)) double weak_f(double x) { return exp(x * 0.3) * x; }
double impl_pub(double x) { return (log(1 + x * x) + x) * 2; }
double aliased(double x) __attribute__((alias("impl_pub")));
__attribute__((target_clones("avx2", "default"))) double weighted_sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (i + 1);
  return s;
}
__attribute__((const)) double cube(double x) { return x * x * x; }
__attribute__((pure)) double prod01(const double *x) { return x[0] * x[1]; }
__attribute__((cold, noinline)) double cold_f(double x) { return cos(x) * 3; }
__attribute__((flatten)) double all(double *x, int n) {
  return smooth_sq(x[0]) + weak_f(x[1]) + aliased(x[2]) + weighted_sq(x, n) + cube(x[3]) +
         prod01(x) + (x[0] > 10 ? cold_f(x[1]) : 0);
}
static double cubic_impl(double x) { return x * x * x + x; }
static double (*resolve_cubic(void))(double) { return cubic_impl; }
double cubic(double) __attribute__((ifunc("resolve_cubic")));
/* the kernel called in a loop over rows, the ifunc calls in a loop */
double rows(const double *x, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++) s += sqrt(1 + weighted_sq(x + i * c, c)) + cubic(x[i * c]);
  return s;
}
extern double __enzyme_fwddiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

typedef struct { double a, b; } P2;
extern P2 __enzyme_fwddiff_p2(void *, ...);
extern P2 __enzyme_autodiff_p2(void *, ...);
__attribute__((noinline)) static P2 polar(double r, double t) {
  P2 p = {r * cos(t), r * sin(t)};
  return p;
}
__attribute__((noinline)) static double pair_f(P2 v) { return sin(v.a) * v.b + v.b * v.b; }

static double x[4] = {0.4, -0.6, 0.9, 1.2};
static double ev(void *c) { (void)c; return all(x, 4); }
static double m[6] = {0.3, -0.2, 0.5, 1.1, -0.7, 0.25};
static double em(void *c) { (void)c; return rows(m, 2, 3); }

int main(void) {
  double dx[4] = {0};
  __enzyme_autodiff((void *)all, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) fz_check("all dx", dx[i], fz_fd_ptr(ev, 0, &x[i]), 1e-6);
  double dm[6] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, m, dm, enzyme_const, 2, enzyme_const, 3);
  for (int i = 0; i < 6; i++) {
    double q = 0;
    for (int j = 0; j < 3; j++) q += m[(i / 3) * 3 + j] * m[(i / 3) * 3 + j] * (j + 1);
    double want = m[i] * ((i % 3) + 1) / sqrt(1 + q) + (i % 3 == 0 ? 3 * m[i] * m[i] + 1 : 0);
    fz_check("rows dm", dm[i], want, 1e-12);
  }
  double tv[6] = {1, -0.5, 0.25, 2, 0.1, -1}, jv = 0;
  for (int i = 0; i < 6; i++) jv += tv[i] * dm[i];
  fz_check("rows fwd", __enzyme_fwddiff((void *)rows, enzyme_dup, m, tv, enzyme_const, 2, enzyme_const, 3), jv, 1e-12);
  double sm[6] = {0};
  void *tape = __enzyme_augmentfwd((void *)rows, enzyme_dup, m, sm, enzyme_const, 2, enzyme_const, 3);
  __enzyme_reverse((void *)rows, enzyme_dup, m, sm, enzyme_const, 2, enzyme_const, 3, 1.0, tape);
  fz_check_arr("rows split", sm, dm, 6, 1e-12);
  fz_check("alias", __enzyme_autodiff((void *)aliased, enzyme_out, 0.5), 2 * (1.0 / 1.25 + 1), 1e-12);
  fz_check("weak", __enzyme_autodiff((void *)weak_f, enzyme_out, 0.5), exp(0.15) * 1.15, 1e-12);

  double r = 1.3, t = 0.7;
  P2 d = __enzyme_fwddiff_p2((void *)polar, r, 1.0, t, 0.0);
  fz_check("polar a/r", d.a, cos(t), 1e-12);
  fz_check("polar b/r", d.b, sin(t), 1e-12);
  P2 e = __enzyme_fwddiff_p2((void *)polar, r, 0.0, t, 1.0);
  fz_check("polar a/t", e.a, -r * sin(t), 1e-12);
  fz_check("polar b/t", e.b, r * cos(t), 1e-12);
  P2 v = {0.4, 1.7};
  P2 g = __enzyme_autodiff_p2((void *)pair_f, enzyme_out, v);
  fz_check("pair a", g.a, cos(v.a) * v.b, 1e-12);
  fz_check("pair b", g.b, sin(v.a) + 2 * v.b, 1e-12);
  return fz_finish();
}
