/* Differentiable definitions of the C99 complex helpers, <complex.h> functions and qsort.
 *
 * Written for Ferrozyme. These functions have no IR in the user's program (they live
 * in libgcc/compiler-rt and libm) and return two results (a complex number), which the
 * rules table, one partial per argument of a scalar result, cannot express. Instead,
 * inside code being differentiated, calls to them go to these definitions
 * (`__fz_lib_<name>`), whose bodies the transform differentiates like any other code:
 * real arithmetic and libm functions that all have rules. The user's own (primal) calls
 * keep using the system's implementations.
 *
 * The formulas are the textbook ones (C11 Annex G for multiplication and its NaN
 * recovery, Smith's algorithm for division); special values (infinities, NaNs, signed
 * zeros on branch cuts) are handled where the derivative could depend on them, not to
 * the last bit of the system libraries, whose primal results the program still uses.
 *
 * Regenerate libdefs/complex.ll after editing: bash tools/gen_libdefs.sh
 */
#include <math.h>

typedef double _Complex dcomplex;
typedef float _Complex fcomplex;

#define RE(z) __real__(z)
#define IM(z) __imag__(z)
#define CPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CPLXF(x, y) __builtin_complex((float)(x), (float)(y))

/* ---- multiplication and division (what clang calls for `z * w`, `z / w`) ---------- */

dcomplex __fz_lib___muldc3(double a, double b, double c, double d) {
  double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  double x = ac - bd, y = ad + bc;
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    /* Annex G: recover infinities computed as NaN + iNaN. */
    int recalc = 0;
    if (__builtin_isinf(a) || __builtin_isinf(b)) {
      a = copysign(__builtin_isinf(a) ? 1.0 : 0.0, a);
      b = copysign(__builtin_isinf(b) ? 1.0 : 0.0, b);
      if (__builtin_isnan(c)) c = copysign(0.0, c);
      if (__builtin_isnan(d)) d = copysign(0.0, d);
      recalc = 1;
    }
    if (__builtin_isinf(c) || __builtin_isinf(d)) {
      c = copysign(__builtin_isinf(c) ? 1.0 : 0.0, c);
      d = copysign(__builtin_isinf(d) ? 1.0 : 0.0, d);
      if (__builtin_isnan(a)) a = copysign(0.0, a);
      if (__builtin_isnan(b)) b = copysign(0.0, b);
      recalc = 1;
    }
    if (!recalc && (__builtin_isinf(ac) || __builtin_isinf(bd) || __builtin_isinf(ad) ||
                    __builtin_isinf(bc))) {
      if (__builtin_isnan(a)) a = copysign(0.0, a);
      if (__builtin_isnan(b)) b = copysign(0.0, b);
      if (__builtin_isnan(c)) c = copysign(0.0, c);
      if (__builtin_isnan(d)) d = copysign(0.0, d);
      recalc = 1;
    }
    if (recalc) {
      x = __builtin_inf() * (a * c - b * d);
      y = __builtin_inf() * (a * d + b * c);
    }
  }
  return CPLX(x, y);
}

dcomplex __fz_lib___divdc3(double a, double b, double c, double d) {
  double x, y;
  if (fabs(c) < fabs(d)) {
    double r = c / d, den = c * r + d;
    x = (a * r + b) / den;
    y = (b * r - a) / den;
  } else {
    double r = d / c, den = d * r + c;
    x = (b * r + a) / den;
    y = (b - a * r) / den;
  }
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    if (c == 0.0 && d == 0.0 && (!__builtin_isnan(a) || !__builtin_isnan(b))) {
      x = copysign(__builtin_inf(), c) * a;
      y = copysign(__builtin_inf(), c) * b;
    } else if ((__builtin_isinf(a) || __builtin_isinf(b)) && __builtin_isfinite(c) &&
               __builtin_isfinite(d)) {
      a = copysign(__builtin_isinf(a) ? 1.0 : 0.0, a);
      b = copysign(__builtin_isinf(b) ? 1.0 : 0.0, b);
      x = __builtin_inf() * (a * c + b * d);
      y = __builtin_inf() * (b * c - a * d);
    } else if ((__builtin_isinf(c) || __builtin_isinf(d)) && __builtin_isfinite(a) &&
               __builtin_isfinite(b)) {
      c = copysign(__builtin_isinf(c) ? 1.0 : 0.0, c);
      d = copysign(__builtin_isinf(d) ? 1.0 : 0.0, d);
      x = 0.0 * (a * c + b * d);
      y = 0.0 * (b * c - a * d);
    }
  }
  return CPLX(x, y);
}

fcomplex __fz_lib___mulsc3(float a, float b, float c, float d) {
  dcomplex z = __fz_lib___muldc3(a, b, c, d);
  return CPLXF(RE(z), IM(z));
}

fcomplex __fz_lib___divsc3(float a, float b, float c, float d) {
  dcomplex z = __fz_lib___divdc3(a, b, c, d);
  return CPLXF(RE(z), IM(z));
}

/* ---- <complex.h>, double ---------------------------------------------------------- */

double __fz_lib_carg(dcomplex z) { return atan2(IM(z), RE(z)); }

dcomplex __fz_lib_cexp(dcomplex z) {
  double e = exp(RE(z));
  return CPLX(e * cos(IM(z)), e * sin(IM(z)));
}

dcomplex __fz_lib_clog(dcomplex z) { return CPLX(log(hypot(RE(z), IM(z))), atan2(IM(z), RE(z))); }

dcomplex __fz_lib_csqrt(dcomplex z) {
  double a = RE(z), b = IM(z);
  if (a == 0.0 && b == 0.0) return CPLX(0.0, b);
  double t = sqrt((fabs(a) + hypot(a, b)) * 0.5);
  if (a >= 0.0) return CPLX(t, b / (2.0 * t));
  return CPLX(fabs(b) / (2.0 * t), copysign(t, b));
}

dcomplex __fz_lib_cpow(dcomplex z, dcomplex w) {
  double a = RE(z), b = IM(z), c = RE(w), d = IM(w);
  if (a == 0.0 && b == 0.0) {
    return (c == 0.0 && d == 0.0) ? CPLX(1.0, 0.0) : CPLX(0.0, 0.0);
  }
  double lr = log(hypot(a, b)), li = atan2(b, a);
  double pr = c * lr - d * li, pi = c * li + d * lr;
  double e = exp(pr);
  return CPLX(e * cos(pi), e * sin(pi));
}

dcomplex __fz_lib_csin(dcomplex z) {
  double a = RE(z), b = IM(z);
  return CPLX(sin(a) * cosh(b), cos(a) * sinh(b));
}

dcomplex __fz_lib_ccos(dcomplex z) {
  double a = RE(z), b = IM(z);
  return CPLX(cos(a) * cosh(b), -(sin(a) * sinh(b)));
}

dcomplex __fz_lib_ctan(dcomplex z) {
  double a = RE(z), b = IM(z);
  double den = cos(2.0 * a) + cosh(2.0 * b);
  return CPLX(sin(2.0 * a) / den, sinh(2.0 * b) / den);
}

dcomplex __fz_lib_csinh(dcomplex z) {
  double a = RE(z), b = IM(z);
  return CPLX(sinh(a) * cos(b), cosh(a) * sin(b));
}

dcomplex __fz_lib_ccosh(dcomplex z) {
  double a = RE(z), b = IM(z);
  return CPLX(cosh(a) * cos(b), sinh(a) * sin(b));
}

dcomplex __fz_lib_ctanh(dcomplex z) {
  double a = RE(z), b = IM(z);
  double den = cosh(2.0 * a) + cos(2.0 * b);
  return CPLX(sinh(2.0 * a) / den, sin(2.0 * b) / den);
}

/* ---- <complex.h>, float (a `float _Complex` travels as <2 x float> on x86-64) ------- */

float __fz_lib_cabsf(fcomplex z) { return hypotf(RE(z), IM(z)); }
float __fz_lib_cargf(fcomplex z) { return atan2f(IM(z), RE(z)); }

fcomplex __fz_lib_cexpf(fcomplex z) {
  float e = expf(RE(z));
  return CPLXF(e * cosf(IM(z)), e * sinf(IM(z)));
}

fcomplex __fz_lib_clogf(fcomplex z) {
  return CPLXF(logf(hypotf(RE(z), IM(z))), atan2f(IM(z), RE(z)));
}

fcomplex __fz_lib_csqrtf(fcomplex z) {
  dcomplex r = __fz_lib_csqrt(CPLX(RE(z), IM(z)));
  return CPLXF(RE(r), IM(r));
}

fcomplex __fz_lib_cpowf(fcomplex z, fcomplex w) {
  dcomplex r = __fz_lib_cpow(CPLX(RE(z), IM(z)), CPLX(RE(w), IM(w)));
  return CPLXF(RE(r), IM(r));
}

fcomplex __fz_lib_csinf(fcomplex z) {
  dcomplex r = __fz_lib_csin(CPLX(RE(z), IM(z)));
  return CPLXF(RE(r), IM(r));
}

fcomplex __fz_lib_ccosf(fcomplex z) {
  dcomplex r = __fz_lib_ccos(CPLX(RE(z), IM(z)));
  return CPLXF(RE(r), IM(r));
}

/* ---- long double (x86-64: `long double _Complex` is passed in memory, `byval`, and
 * returned as two x87 values) ------------------------------------------------------- */
/* Written in long double throughout, so the derivative keeps the precision the program
 * computes in; the same formulas as the double versions above. */

typedef long double _Complex lcomplex;
#define CPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))

lcomplex __fz_lib___mulxc3(long double a, long double b, long double c, long double d) {
  long double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  long double x = ac - bd, y = ad + bc;
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    int recalc = 0;
    if (__builtin_isinf(a) || __builtin_isinf(b)) {
      a = copysignl(__builtin_isinf(a) ? 1.0L : 0.0L, a);
      b = copysignl(__builtin_isinf(b) ? 1.0L : 0.0L, b);
      if (__builtin_isnan(c)) c = copysignl(0.0L, c);
      if (__builtin_isnan(d)) d = copysignl(0.0L, d);
      recalc = 1;
    }
    if (__builtin_isinf(c) || __builtin_isinf(d)) {
      c = copysignl(__builtin_isinf(c) ? 1.0L : 0.0L, c);
      d = copysignl(__builtin_isinf(d) ? 1.0L : 0.0L, d);
      if (__builtin_isnan(a)) a = copysignl(0.0L, a);
      if (__builtin_isnan(b)) b = copysignl(0.0L, b);
      recalc = 1;
    }
    if (!recalc && (__builtin_isinf(ac) || __builtin_isinf(bd) || __builtin_isinf(ad) ||
                    __builtin_isinf(bc))) {
      if (__builtin_isnan(a)) a = copysignl(0.0L, a);
      if (__builtin_isnan(b)) b = copysignl(0.0L, b);
      if (__builtin_isnan(c)) c = copysignl(0.0L, c);
      if (__builtin_isnan(d)) d = copysignl(0.0L, d);
      recalc = 1;
    }
    if (recalc) {
      x = __builtin_infl() * (a * c - b * d);
      y = __builtin_infl() * (a * d + b * c);
    }
  }
  return CPLXL(x, y);
}

lcomplex __fz_lib___divxc3(long double a, long double b, long double c, long double d) {
  long double x, y;
  if (fabsl(c) < fabsl(d)) {
    long double r = c / d, den = c * r + d;
    x = (a * r + b) / den;
    y = (b * r - a) / den;
  } else {
    long double r = d / c, den = d * r + c;
    x = (b * r + a) / den;
    y = (b - a * r) / den;
  }
  if (__builtin_isnan(x) && __builtin_isnan(y)) {
    if (c == 0.0L && d == 0.0L && (!__builtin_isnan(a) || !__builtin_isnan(b))) {
      x = copysignl(__builtin_infl(), c) * a;
      y = copysignl(__builtin_infl(), c) * b;
    } else if ((__builtin_isinf(a) || __builtin_isinf(b)) && __builtin_isfinite(c) &&
               __builtin_isfinite(d)) {
      a = copysignl(__builtin_isinf(a) ? 1.0L : 0.0L, a);
      b = copysignl(__builtin_isinf(b) ? 1.0L : 0.0L, b);
      x = __builtin_infl() * (a * c + b * d);
      y = __builtin_infl() * (b * c - a * d);
    } else if ((__builtin_isinf(c) || __builtin_isinf(d)) && __builtin_isfinite(a) &&
               __builtin_isfinite(b)) {
      c = copysignl(__builtin_isinf(c) ? 1.0L : 0.0L, c);
      d = copysignl(__builtin_isinf(d) ? 1.0L : 0.0L, d);
      x = 0.0L * (a * c + b * d);
      y = 0.0L * (b * c - a * d);
    }
  }
  return CPLXL(x, y);
}

long double __fz_lib_cabsl(lcomplex z) { return hypotl(RE(z), IM(z)); }
long double __fz_lib_cargl(lcomplex z) { return atan2l(IM(z), RE(z)); }

lcomplex __fz_lib_cexpl(lcomplex z) {
  long double e = expl(RE(z));
  return CPLXL(e * cosl(IM(z)), e * sinl(IM(z)));
}

lcomplex __fz_lib_clogl(lcomplex z) {
  return CPLXL(logl(hypotl(RE(z), IM(z))), atan2l(IM(z), RE(z)));
}

lcomplex __fz_lib_csqrtl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  if (a == 0.0L && b == 0.0L) return CPLXL(0.0L, b);
  long double t = sqrtl((fabsl(a) + hypotl(a, b)) * 0.5L);
  if (a >= 0.0L) return CPLXL(t, b / (2.0L * t));
  return CPLXL(fabsl(b) / (2.0L * t), copysignl(t, b));
}

lcomplex __fz_lib_cpowl(lcomplex z, lcomplex w) {
  long double a = RE(z), b = IM(z), c = RE(w), d = IM(w);
  if (a == 0.0L && b == 0.0L) {
    return (c == 0.0L && d == 0.0L) ? CPLXL(1.0L, 0.0L) : CPLXL(0.0L, 0.0L);
  }
  long double lr = logl(hypotl(a, b)), li = atan2l(b, a);
  long double pr = c * lr - d * li, pi = c * li + d * lr;
  long double e = expl(pr);
  return CPLXL(e * cosl(pi), e * sinl(pi));
}

lcomplex __fz_lib_csinl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  return CPLXL(sinl(a) * coshl(b), cosl(a) * sinhl(b));
}

lcomplex __fz_lib_ccosl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  return CPLXL(cosl(a) * coshl(b), -(sinl(a) * sinhl(b)));
}

lcomplex __fz_lib_ctanl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  long double den = cosl(2.0L * a) + coshl(2.0L * b);
  return CPLXL(sinl(2.0L * a) / den, sinhl(2.0L * b) / den);
}

lcomplex __fz_lib_csinhl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  return CPLXL(sinhl(a) * cosl(b), coshl(a) * sinl(b));
}

lcomplex __fz_lib_ccoshl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  return CPLXL(coshl(a) * cosl(b), sinhl(a) * sinl(b));
}

lcomplex __fz_lib_ctanhl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  long double den = coshl(2.0L * a) + cosl(2.0L * b);
  return CPLXL(sinhl(2.0L * a) / den, sinl(2.0L * b) / den);
}

/* The inverse functions, principal branches (cuts as C99 7.3.5-7.3.6 place them), by
 * Kahan's formulas: casinh z = log(z + sqrt(z^2 + 1)), taken at -z when Re z < 0 (it is
 * odd; so z and the root never cancel), casin z = -i casinh(i z), cacos z = pi/2 - casin z,
 * cacosh z = log(z + sqrt(z + 1) sqrt(z - 1)) (two roots: sqrt(z^2 - 1) has the wrong
 * sign for Re z < 0), catanh z = (log(1 + z) - log(1 - z)) / 2, catan z = -i catanh(i z).
 * The double and float versions are registered rules (custom/holomorphic.rs); long double
 * complex travels in memory, so these are differentiable definitions like the others. */

lcomplex __fz_lib_casinhl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  int flip = a < 0.0L;
  if (flip) a = -a, b = -b;
  lcomplex s = __fz_lib_csqrtl(CPLXL(a * a - b * b + 1.0L, 2.0L * a * b));
  lcomplex l = __fz_lib_clogl(CPLXL(a + RE(s), b + IM(s)));
  return flip ? CPLXL(-RE(l), -IM(l)) : l;
}

lcomplex __fz_lib_casinl(lcomplex z) {
  lcomplex h = __fz_lib_casinhl(CPLXL(-IM(z), RE(z)));
  return CPLXL(IM(h), -RE(h));
}

lcomplex __fz_lib_cacosl(lcomplex z) {
  lcomplex s = __fz_lib_casinl(z);
  return CPLXL(1.57079632679489661923132169163975144L - RE(s), -IM(s));
}

lcomplex __fz_lib_cacoshl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  lcomplex p = __fz_lib_csqrtl(CPLXL(a + 1.0L, b));
  lcomplex m = __fz_lib_csqrtl(CPLXL(a - 1.0L, b));
  long double r = RE(p) * RE(m) - IM(p) * IM(m), i = RE(p) * IM(m) + IM(p) * RE(m);
  return __fz_lib_clogl(CPLXL(a + r, b + i));
}

lcomplex __fz_lib_catanhl(lcomplex z) {
  long double a = RE(z), b = IM(z);
  lcomplex p = __fz_lib_clogl(CPLXL(1.0L + a, b));
  lcomplex m = __fz_lib_clogl(CPLXL(1.0L - a, -b));
  return CPLXL(0.5L * (RE(p) - RE(m)), 0.5L * (IM(p) - IM(m)));
}

lcomplex __fz_lib_catanl(lcomplex z) {
  lcomplex h = __fz_lib_catanhl(CPLXL(-IM(z), RE(z)));
  return CPLXL(IM(h), -RE(h));
}

/* ---- <stdlib.h> qsort ---------------------------------------------------------------- */

#include <stddef.h>
#include <stdlib.h>

/* Heapsort: in place, no recursion, O(n log n) comparator calls. Elements move with
 * memcpy (the intrinsic, also under -fno-builtin) through one temporary element, so the
 * type of the data is whatever the caller's array holds. (qsort is not stable; neither
 * is this.) */
static void fz_swap(char *a, char *b, size_t size, char *tmp) {
  __builtin_memcpy(tmp, a, size);
  __builtin_memcpy(a, b, size);
  __builtin_memcpy(b, tmp, size);
}

static void fz_sift(char *base, size_t start, size_t end, size_t size,
                    int (*cmp)(const void *, const void *), char *tmp) {
  size_t root = start;
  while (2 * root + 1 <= end) {
    size_t child = 2 * root + 1, sw = root;
    if (cmp(base + sw * size, base + child * size) < 0) sw = child;
    if (child + 1 <= end && cmp(base + sw * size, base + (child + 1) * size) < 0) sw = child + 1;
    if (sw == root) return;
    fz_swap(base + root * size, base + sw * size, size, tmp);
    root = sw;
  }
}

void __fz_lib_qsort(void *base_, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n < 2 || size == 0) return;
  char *base = (char *)base_;
  char *tmp = (char *)malloc(size);
  if (!tmp) abort();
  for (size_t start = (n - 2) / 2 + 1; start-- > 0;) fz_sift(base, start, n - 1, size, cmp, tmp);
  for (size_t end = n - 1; end > 0; end--) {
    fz_swap(base, base + end * size, size, tmp);
    fz_sift(base, 0, end - 1, size, cmp, tmp);
  }
  free(tmp);
}
