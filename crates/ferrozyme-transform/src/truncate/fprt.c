/* Ferrozyme's floating-point truncation runtime: arithmetic and math functions computed
 * with MPFR and rounded to a narrower binary format (e exponent bits, m stored mantissa
 * bits, IEEE-style subnormals, round to nearest even), for __enzyme_truncate_op_func and
 * __enzyme_truncate_mem_func (crates/ferrozyme-transform/src/truncate.rs). Compiled to
 * fprt.ll by tools/gen_truncate_runtime.sh; programs using it link -lmpfr.
 *
 * Every operation rounds its operands to the format, computes the exact result and
 * rounds it once to the format: the result is what an IEEE implementation of the format
 * with correctly rounded operations (MPFR's guarantee, also for the math functions)
 * returns. Values travel as doubles (a format narrower than double is a subset). */
#include <mpfr.h>

/* The format's MPFR exponent range: the largest finite value is below 2^emax, the
 * smallest subnormal is 2^(emin - 1). */
static void __fz_fprt_range(int e, int m, mpfr_exp_t *emin, mpfr_exp_t *emax) {
  mpfr_exp_t bias = ((mpfr_exp_t)1 << (e - 1)) - 1;
  *emax = bias + 1;
  *emin = 3 - (bias + 1) - m;
}

typedef struct {
  mpfr_exp_t emin, emax;
} __fz_fprt_saved;

static __fz_fprt_saved __fz_fprt_enter(int e, int m) {
  __fz_fprt_saved s = {mpfr_get_emin(), mpfr_get_emax()};
  mpfr_exp_t lo, hi;
  __fz_fprt_range(e, m, &lo, &hi);
  mpfr_set_emin(lo);
  mpfr_set_emax(hi);
  return s;
}

static void __fz_fprt_leave(__fz_fprt_saved s) {
  mpfr_set_emin(s.emin);
  mpfr_set_emax(s.emax);
}

/* Makes v (computed with ternary value t) a value of the format. */
static void __fz_fprt_fix(mpfr_t v, int t) {
  t = mpfr_check_range(v, t, MPFR_RNDN);
  mpfr_subnormalize(v, t, MPFR_RNDN);
}

/* v := x rounded to the format. */
static void __fz_fprt_load(mpfr_t v, double x) {
  int t = mpfr_set_d(v, x, MPFR_RNDN);
  __fz_fprt_fix(v, t);
}

double __fz_fprt_to_format(double x, int e, int m) {
  __fz_fprt_saved s = __fz_fprt_enter(e, m);
  mpfr_t v;
  mpfr_init2(v, m + 1);
  __fz_fprt_load(v, x);
  double r = mpfr_get_d(v, MPFR_RNDN);
  mpfr_clear(v);
  __fz_fprt_leave(s);
  return r;
}

#define FPRT_BINARY(NAME, CALL)                                                           \
  double __fz_fprt_##NAME(double x, double y, int e, int m) {                            \
    __fz_fprt_saved s = __fz_fprt_enter(e, m);                                            \
    mpfr_t a, b, r;                                                                       \
    mpfr_inits2(m + 1, a, b, r, (mpfr_ptr)0);                                             \
    __fz_fprt_load(a, x);                                                                 \
    __fz_fprt_load(b, y);                                                                 \
    __fz_fprt_fix(r, CALL(r, a, b, MPFR_RNDN));                                           \
    double out = mpfr_get_d(r, MPFR_RNDN);                                                \
    mpfr_clears(a, b, r, (mpfr_ptr)0);                                                    \
    __fz_fprt_leave(s);                                                                   \
    return out;                                                                           \
  }

#define FPRT_UNARY(NAME, CALL)                                                            \
  double __fz_fprt_##NAME(double x, int e, int m) {                                      \
    __fz_fprt_saved s = __fz_fprt_enter(e, m);                                            \
    mpfr_t a, r;                                                                          \
    mpfr_inits2(m + 1, a, r, (mpfr_ptr)0);                                                \
    __fz_fprt_load(a, x);                                                                 \
    __fz_fprt_fix(r, CALL(r, a, MPFR_RNDN));                                              \
    double out = mpfr_get_d(r, MPFR_RNDN);                                                \
    mpfr_clears(a, r, (mpfr_ptr)0);                                                       \
    __fz_fprt_leave(s);                                                                   \
    return out;                                                                           \
  }

/* Exact operations on a value of the format need no rounding of their result. */
#define FPRT_EXACT(NAME, CALL)                                                            \
  double __fz_fprt_##NAME(double x, int e, int m) {                                      \
    __fz_fprt_saved s = __fz_fprt_enter(e, m);                                            \
    mpfr_t a, r;                                                                          \
    mpfr_inits2(m + 1, a, r, (mpfr_ptr)0);                                                \
    __fz_fprt_load(a, x);                                                                 \
    CALL(r, a);                                                                           \
    double out = mpfr_get_d(r, MPFR_RNDN);                                                \
    mpfr_clears(a, r, (mpfr_ptr)0);                                                       \
    __fz_fprt_leave(s);                                                                   \
    return out;                                                                           \
  }

FPRT_BINARY(fadd, mpfr_add)
FPRT_BINARY(fsub, mpfr_sub)
FPRT_BINARY(fmul, mpfr_mul)
FPRT_BINARY(fdiv, mpfr_div)
FPRT_BINARY(frem, mpfr_fmod)
FPRT_BINARY(pow, mpfr_pow)
FPRT_BINARY(atan2, mpfr_atan2)
FPRT_BINARY(hypot, mpfr_hypot)
FPRT_BINARY(fmax, mpfr_max)
FPRT_BINARY(fmin, mpfr_min)
FPRT_UNARY(sqrt, mpfr_sqrt)
FPRT_UNARY(cbrt, mpfr_cbrt)
FPRT_UNARY(exp, mpfr_exp)
FPRT_UNARY(exp2, mpfr_exp2)
FPRT_UNARY(expm1, mpfr_expm1)
FPRT_UNARY(log, mpfr_log)
FPRT_UNARY(log2, mpfr_log2)
FPRT_UNARY(log10, mpfr_log10)
FPRT_UNARY(log1p, mpfr_log1p)
FPRT_UNARY(sin, mpfr_sin)
FPRT_UNARY(cos, mpfr_cos)
FPRT_UNARY(tan, mpfr_tan)
FPRT_UNARY(asin, mpfr_asin)
FPRT_UNARY(acos, mpfr_acos)
FPRT_UNARY(atan, mpfr_atan)
FPRT_UNARY(sinh, mpfr_sinh)
FPRT_UNARY(cosh, mpfr_cosh)
FPRT_UNARY(tanh, mpfr_tanh)
FPRT_UNARY(asinh, mpfr_asinh)
FPRT_UNARY(acosh, mpfr_acosh)
FPRT_UNARY(atanh, mpfr_atanh)
static int __fz_fprt_abs(mpfr_ptr r, mpfr_srcptr a) { return mpfr_abs(r, a, MPFR_RNDN); }
FPRT_EXACT(fabs, __fz_fprt_abs)
FPRT_EXACT(floor, mpfr_floor)
FPRT_EXACT(ceil, mpfr_ceil)
FPRT_EXACT(trunc, mpfr_trunc)
FPRT_EXACT(roundaway, mpfr_round)

double __fz_fprt_fma(double x, double y, double z, int e, int m) {
  __fz_fprt_saved s = __fz_fprt_enter(e, m);
  mpfr_t a, b, c, r;
  mpfr_inits2(m + 1, a, b, c, r, (mpfr_ptr)0);
  __fz_fprt_load(a, x);
  __fz_fprt_load(b, y);
  __fz_fprt_load(c, z);
  __fz_fprt_fix(r, mpfr_fma(r, a, b, c, MPFR_RNDN));
  double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, b, c, r, (mpfr_ptr)0);
  __fz_fprt_leave(s);
  return out;
}

/* x^n (llvm.powi) as pow with an integer exponent. */
double __fz_fprt_powi(double x, int n, int e, int m) {
  __fz_fprt_saved s = __fz_fprt_enter(e, m);
  mpfr_t a, r;
  mpfr_inits2(m + 1, a, r, (mpfr_ptr)0);
  __fz_fprt_load(a, x);
  __fz_fprt_fix(r, mpfr_pow_si(r, a, n, MPFR_RNDN));
  double out = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clears(a, r, (mpfr_ptr)0);
  __fz_fprt_leave(s);
  return out;
}
