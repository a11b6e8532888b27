// OPT: O0 O1 O2 O3
// libm and compiler builtins in one user function (sweep20): `__builtin_expect` on the
// branch, `__builtin_fma`, `fmin`/`fmax` (ties broken by the inputs chosen off the
// kink), `copysign`, `hypot`, `cbrt`, `erf`, `erfc`, `tgamma`, `lgamma`, `expm1`,
// `log1p`, `atan2`, and the float versions (`hypotf`, `cbrtf`, `erff`, `tgammaf`).
// Oracles: every partial derivative written out by hand (digamma by its series for
// tgamma/lgamma), reverse and forward mode, and finite differences of the whole.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

double special(double a, double b) {
  double s = 0;
  if (__builtin_expect(a > 0, 1)) s += __builtin_fma(a, b, cbrt(a));
  s += fmin(a, b) * 2.0 + fmax(a * a, b);
  s += copysign(hypot(a, b), -b);
  s += erf(a * b) + erfc(b);
  s += tgamma(a + 1.5) + lgamma(b + 3.0);
  s += expm1(a) * log1p(b * b) + atan2(a, b);
  return s;
}

float specialf(float a, float b) {
  return hypotf(a, b) + cbrtf(a * b) + erff(a) + tgammaf(b + 1.0f);
}

/* digamma(x) for x > 0: recurrence up to x >= 40, then the asymptotic series (error
   below 1e-17 there). */
static double digamma(double x) {
  double r = 0;
  while (x < 40) r -= 1 / x, x += 1;
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f / 240)));
}

static void special_grad(double a, double b, double *da, double *db) {
  const double sqpi = 1.1283791670955126; /* 2 / sqrt(pi) */
  *da = *db = 0;
  if (a > 0) *da += b + 1.0 / (3 * cbrt(a * a)), *db += a;
  if (a < b) *da += 2; else *db += 2;
  if (a * a > b) *da += 2 * a; else *db += 1;
  double h = hypot(a, b), sg = b > 0 ? -1 : 1;
  *da += sg * a / h, *db += sg * b / h;
  double e = sqpi * exp(-(a * b) * (a * b));
  *da += e * b, *db += e * a;
  *db -= sqpi * exp(-b * b);
  *da += tgamma(a + 1.5) * digamma(a + 1.5);
  *db += digamma(b + 3.0);
  *da += exp(a) * log1p(b * b), *db += expm1(a) * 2 * b / (1 + b * b);
  *da += b / (a * a + b * b), *db += -a / (a * a + b * b);
}

static double A, B;
static double eval(void *c) { (void)c; return special(A, B); }

int main(void) {
  const double pts[][2] = {{0.7, 1.3}, {1.4, -0.6}, {-0.4, 0.9}, {0.3, 0.2}};
  for (int k = 0; k < 4; k++) {
    A = pts[k][0], B = pts[k][1];
    double wa, wb;
    special_grad(A, B, &wa, &wb);
    typedef struct { double da, db; } G2;
    extern G2 __enzyme_autodiff_g2(void *, ...);
    G2 g = __enzyme_autodiff_g2((void *)special, A, B);
    fz_check("d/da analytic", g.da, wa, 1e-12);
    fz_check("d/db analytic", g.db, wb, 1e-12);
    fz_check("d/da vs FD", g.da, fz_fd_ptr(eval, NULL, &A), 1e-6);
    fz_check("d/db vs FD", g.db, fz_fd_ptr(eval, NULL, &B), 1e-6);
    fz_check("forward along (1, 0)", __enzyme_fwddiff((void *)special, A, 1.0, B, 0.0), wa, 1e-12);
    fz_check("forward along (0.5, -2)", __enzyme_fwddiff((void *)special, A, 0.5, B, -2.0),
             0.5 * wa - 2 * wb, 1e-12);
  }
  /* float: d/da = a/h + b/(3 cbrt(ab)^2) + 2/sqrt(pi) e^{-a^2}; d/db from the rest. */
  typedef struct { float da, db; } G2f;
  extern G2f __enzyme_autodiff_g2f(void *, ...);
  float a = 0.8f, b = 1.7f;
  G2f gf = __enzyme_autodiff_g2f((void *)specialf, a, b);
  double h = hypot(a, b), c = cbrt((double)a * b);
  fz_check("float d/da", gf.da, a / h + b / (3 * c * c) + 1.1283791670955126 * exp(-(double)a * a),
           1e-5);
  fz_check("float d/db", gf.db, b / h + a / (3 * c * c) + tgamma(b + 1.0) * digamma(b + 1.0), 1e-5);
  return fz_finish();
}
