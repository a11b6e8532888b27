// OPT: O0 O1 O2 O3
// The libm functions statistics and physics codes call, in one objective and each on
// its own: erf, erfc, tgamma, lgamma, expm1, log1p, cbrt, hypot, atan2, copysign,
// fmin, fmax, fdim, pow with integer exponents (2, 3, -2, and an int variable), and the
// functions with out-parameters frexp (mantissa), modf (fractional and integral part
// through a pointer) and remquo's quotient feeding ldexp; float variants erff, tgammaf,
// lgammaf, cbrtf. Oracle: analytic derivatives where a closed form exists (the gamma
// functions through digamma written as a series in main) and central finite
// differences (five-point) for every input.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

static double digamma(double x) {
  double r = 0;
  while (x < 8) r -= 1 / x, x += 1;
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double zoo(const double *x, int p) {
  double a = x[0], b = x[1], c = x[2];
  double s = erf(a) + erfc(0.5 * b) + tgamma(c) + lgamma(c + a * a) + expm1(a * b);
  s += log1p(b * b) + cbrt(c + 1.0) + hypot(a, b) + atan2(b, c);
  s += copysign(a * a, -1.0) + fmin(a, b) + fmax(b * c, a) + fdim(c, a);
  s += pow(a, 2) + pow(b, 3) + pow(c, -2) + pow(a + c, p);
  int e;
  double m = frexp(c * 10.0, &e); /* c*10 = m 2^e */
  s += m * e;
  double ip;
  double fr = modf(b * 7.0, &ip);
  s += fr * fr + 0.1 * ip;
  int q;
  double rem = remquo(c * 5.0, 1.5, &q);
  s += ldexp(a, q % 4) + 0.25 * rem;
  return s;
}

float zoo_f(float a, float c) { return erff(a) + tgammaf(c) + lgammaf(c + a) + cbrtf(c * a); }

static double g_x[3];
static int g_p;
static double eval(void *ctx) {
  (void)ctx;
  return zoo(g_x, g_p);
}

int main(void) {
  g_x[0] = 0.7, g_x[1] = -1.3, g_x[2] = 2.2, g_p = 4;
  double a = g_x[0], b = g_x[1], c = g_x[2];
  double dx[3] = {0};
  __enzyme_autodiff((void *)zoo, enzyme_dup, g_x, dx, enzyme_const, g_p);
  int e;
  frexp(c * 10.0, &e);
  double ip;
  modf(b * 7.0, &ip);
  double fr = b * 7.0 - ip;
  int q;
  remquo(c * 5.0, 1.5, &q);
  double tg = tgamma(c);
  double h = hypot(a, b);
  /* here: a < c, b < a, b*c < a */
  double want_a = 2 / sqrt(M_PI) * exp(-a * a) + digamma(c + a * a) * 2 * a + b * exp(a * b) +
                  a / h /* hypot */ - 2 * a /* copysign */ + 1.0 /* fmax */ - 1.0 /* fdim */ + 2 * a + g_p * pow(a + c, g_p - 1) +
                  ldexp(1.0, q % 4);
  double want_b = -0.5 * 2 / sqrt(M_PI) * exp(-0.25 * b * b) + a * exp(a * b) +
                  2 * b / (1 + b * b) + b / h + c / (b * b + c * c) + 1.0 + 3 * b * b +
                  2 * fr * 7.0;
  double want_c = tg * digamma(c) + digamma(c + a * a) + 1.0 / (3 * cbrt((c + 1) * (c + 1))) -
                  b / (b * b + c * c) + 1.0 - 2 * pow(c, -3) + g_p * pow(a + c, g_p - 1) +
                  10.0 * e / ldexp(1.0, e) + 0.25 * 5.0;
  fz_check("d/da analytic", dx[0], want_a, 1e-9);
  fz_check("d/db analytic", dx[1], want_b, 1e-9);
  fz_check("d/dc analytic", dx[2], want_c, 1e-9);
  for (int i = 0; i < 3; i++) {
    char nm[32];
    snprintf(nm, sizeof nm, "d/dx[%d] vs FD", i);
    fz_check(nm, dx[i], fz_fd5_ptr(eval, NULL, &g_x[i]), 1e-7);
  }
  double v[3] = {0.3, -0.2, 0.9};
  double t = __enzyme_fwddiff((void *)zoo, enzyme_dup, g_x, v, enzyme_const, g_p);
  fz_check("forward = <grad, v>", t, 0.3 * dx[0] - 0.2 * dx[1] + 0.9 * dx[2], 1e-12);
  typedef struct { float da, dc; } gf;
  extern gf __enzyme_autodiff_gf(void *, ...);
  float af = 0.6f, cf = 1.8f;
  gf g = __enzyme_autodiff_gf((void *)zoo_f, af, cf);
  double wa = 2 / sqrt(M_PI) * exp(-(double)af * af) + digamma(cf + af) +
              cf / (3 * cbrt(((double)cf * af) * ((double)cf * af)));
  double wc = tgamma(cf) * digamma(cf) + digamma(cf + af) +
              af / (3 * cbrt(((double)cf * af) * ((double)cf * af)));
  fz_check("float d/da", g.da, wa, 1e-5);
  fz_check("float d/dc", g.dc, wc, 1e-5);
  return fz_finish();
}
