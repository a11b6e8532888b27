// OPT: O0 O2
// LLI: O0 O2
// ARGS: -lmpfr
// Enzyme's floating-point truncation: __enzyme_truncate_op_func / _mem_func run a double
// function with every operation rounded to a narrower format (float: 64 -> 32; half:
// 64 -> 5 exponent bits, 10 mantissa bits; a tiny 4/3 format), calls of other functions
// truncated too, loops writing memory, comparisons on rounded values, and
// __enzyme_truncate_mem_value / __enzyme_expand_mem_value. Oracles: the same functions
// written with float arithmetic (64 -> 32), and written directly against MPFR at the
// target precision and exponent range (every format): results must agree exactly.
#include <mpfr.h>
#include "fz_test.h"

typedef double (*fdd)(double, double);
typedef double (*fd)(double);
typedef void (*fv)(double *, const double *, double, int);
typedef int (*fi)(double, double);
extern fdd __enzyme_truncate_op_func(void *, int, int);
extern fdd __enzyme_truncate_op_func3(void *, int, int, int);
extern fdd __enzyme_truncate_mem_func(void *, int, int);
extern fd __enzyme_truncate_op_func_d(void *, int, int, int);
extern fv __enzyme_truncate_op_func_v(void *, int, int);
extern fi __enzyme_truncate_op_func_i(void *, int, int);
extern double __enzyme_truncate_mem_value(double, int, int);
extern double __enzyme_expand_mem_value(double, int, int);

__attribute__((noinline)) double scale(double a, double b) { return a * b - 0.1; }
double poly(double x, double y) { return (scale(x, y) + 0.3) / (y - x) * x - y; }
double mathy(double x) { return sqrt(x) + exp(x) * sin(x) - pow(x, 1.5) + fabs(x - 2.0); }
void axpy_loop(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}
int close_enough(double a, double b) { return a + 1e-9 > b; }

/* ---- float references (64 -> 32) ---- */
static float scale_f(float a, float b) { return a * b - 0.1f; }
static float poly_f(float x, float y) { return (scale_f(x, y) + 0.3f) / (y - x) * x - y; }

/* ---- MPFR references: a format of e exponent and m mantissa bits ---- */
static int E, M;
static void fmt_enter(void) {
  long bias = (1L << (E - 1)) - 1;
  mpfr_set_emax(bias + 1);
  mpfr_set_emin(3 - (bias + 1) - M);
}
static void fmt_leave(void) {
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
}
static void rnd(mpfr_t v, int t) { mpfr_subnormalize(v, mpfr_check_range(v, t, MPFR_RNDN), MPFR_RNDN); }
/* r = op(rnd(x), rnd(y)) rounded, for op one of + - * / */
static double ref2(char op, double x, double y) {
  fmt_enter();
  mpfr_t a, b, r;
  mpfr_inits2(M + 1, a, b, r, (mpfr_ptr)0);
  rnd(a, mpfr_set_d(a, x, MPFR_RNDN));
  rnd(b, mpfr_set_d(b, y, MPFR_RNDN));
  int t = op == '+' ? mpfr_add(r, a, b, MPFR_RNDN)
        : op == '-' ? mpfr_sub(r, a, b, MPFR_RNDN)
        : op == '*' ? mpfr_mul(r, a, b, MPFR_RNDN)
        : op == '^' ? mpfr_pow(r, a, b, MPFR_RNDN)
                    : mpfr_div(r, a, b, MPFR_RNDN);
  rnd(r, t);
  double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, b, r, (mpfr_ptr)0);
  fmt_leave();
  return out;
}
static double ref1(char op, double x) {
  fmt_enter();
  mpfr_t a, r;
  mpfr_inits2(M + 1, a, r, (mpfr_ptr)0);
  rnd(a, mpfr_set_d(a, x, MPFR_RNDN));
  int t = op == 's' ? mpfr_sqrt(r, a, MPFR_RNDN)
        : op == 'e' ? mpfr_exp(r, a, MPFR_RNDN)
        : op == 'n' ? mpfr_sin(r, a, MPFR_RNDN)
                    : mpfr_abs(r, a, MPFR_RNDN);
  rnd(r, t);
  double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, r, (mpfr_ptr)0);
  fmt_leave();
  return out;
}
static double ref_poly(double x, double y) {
  double s = ref2('-', ref2('*', x, y), 0.1);
  return ref2('-', ref2('*', ref2('/', ref2('+', s, 0.3), ref2('-', y, x)), x), y);
}
static double ref_mathy(double x) {
  double a = ref1('s', x);
  double b = ref2('*', ref1('e', x), ref1('n', x));
  double c = ref2('^', x, 1.5);
  double d = ref1('a', ref2('-', x, 2.0));
  return ref2('+', ref2('-', ref2('+', a, b), c), d);
}

/* Exact agreement, infinities and NaNs included. */
static void same(const char *what, double got, double want) {
  if (got == want || (isnan(got) && isnan(want))) fz_check(what, 1, 1, 0);
  else fz_check(what, got, want, 0);
}

int main(void) {
  fz_seed(540);
  fdd tf = __enzyme_truncate_op_func((void *)poly, 64, 32);
  fdd tm = __enzyme_truncate_mem_func((void *)poly, 64, 32);
  fdd th = __enzyme_truncate_op_func3((void *)poly, 64, 5, 10);
  fdd tt = __enzyme_truncate_op_func3((void *)poly, 64, 4, 3);
  fd mh = __enzyme_truncate_op_func_d((void *)mathy, 64, 5, 10);
  fd mf = __enzyme_truncate_op_func_d((void *)mathy, 64, 8, 23);
  int differs = 0;
  for (int k = 0; k < 200; k++) {
    double x = fz_uniform(-3, 3), y = fz_uniform(-3, 3);
    char what[64];
    snprintf(what, sizeof what, "poly 64->32 vs float arithmetic (k=%d)", k);
    fz_check(what, tf(x, y), (double)poly_f((float)x, (float)y), 0);
    double tx = __enzyme_truncate_mem_value(x, 64, 32), ty = __enzyme_truncate_mem_value(y, 64, 32);
    fz_check("mem_value is the float value", tx, (double)(float)x, 0);
    fz_check("mem mode vs float arithmetic",
             __enzyme_expand_mem_value(tm(tx, ty), 64, 32), (double)poly_f((float)x, (float)y), 0);
    E = 8, M = 23;
    fz_check("poly 64->32 vs MPFR", tf(x, y), ref_poly(x, y), 0);
    E = 5, M = 10;
    same("poly 64->half vs MPFR", th(x, y), ref_poly(x, y));
    E = 4, M = 3;
    same("poly 64->(4,3) vs MPFR", tt(x, y), ref_poly(x, y));
    differs += tf(x, y) != poly(x, y);
    double z = fz_uniform(0.1, 4);
    E = 5, M = 10;
    fz_check("mathy 64->half vs MPFR", mh(z), ref_mathy(z), 0);
    E = 8, M = 23;
    fz_check("mathy 64->32 vs MPFR", mf(z), ref_mathy(z), 0);
  }
  fz_check("truncation changes results", differs > 100, 1, 0);
  /* A loop writing memory. */
  double xs[9], ys[9], ys2[9];
  fz_fill(xs, 9, -1, 1);
  fz_fill(ys, 9, -1, 1);
  float yf[9];
  for (int i = 0; i < 9; i++) ys2[i] = ys[i], yf[i] = (float)ys[i];
  __enzyme_truncate_op_func_v((void *)axpy_loop, 64, 32)(ys2, xs, 0.7, 9);
  for (int i = 0; i < 9; i++) yf[i] += 0.7f * (float)xs[i];
  for (int i = 0; i < 9; i++) fz_check("loop 64->32 vs float", ys2[i], (double)yf[i], 0);
  /* Comparisons on rounded values: 1 + 1e-9 rounds to 1 in float. */
  fi cmp = __enzyme_truncate_op_func_i((void *)close_enough, 64, 32);
  fz_check("compare in double", close_enough(1.0, 1.0 + 5e-10), 1, 0);
  fz_check("compare in float", cmp(1.0, 1.0 + 5e-10), 0, 0);
  return fz_finish();
}
