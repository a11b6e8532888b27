// OPT: O0 O2
// The C99 math library broadly, as scientific C calls it: frexp/ldexp/modf/scalbn/logb,
// fmod/remainder/remquo, copysign/fabs, fmin/fmax/fdim, hypot, cbrt, erf/erfc,
// tgamma/lgamma, expm1/log1p, atan2, sinh/cosh/tanh, asinh/acosh/atanh, exp2/log2/log10,
// pow, fma, trunc/round/floor/ceil/rint/nearbyint (derivative 0 away from their jumps),
// and their float versions (erff, tgammaf, hypotf, cbrtf, atan2f, log1pf, expm1f, modff,
// frexpf). Each function is differentiated on its own in reverse mode (one gradient per
// argument) and in forward mode, at points away from kinks and jumps. Oracle: the
// analytic derivative (digamma by its series for lgamma/tgamma), central differences,
// and forward = reverse for each scalar function.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f1(void *, float);
extern float __enzyme_fwddiff_f1(void *, float, float);

// ---- double functions of one argument ---------------------------------------------
double f_frexp(double x) { int e; double m = frexp(x, &e); return m * m + e; }
double f_ldexp(double x) { return ldexp(x * x, 3) + ldexp(x, -2); }
double f_modf(double x) { double ip; double fr = modf(x, &ip); return fr * fr + 0.5 * ip; }
double f_scalbn(double x) { return scalbn(sin(x), 4); }
double f_logb(double x) { return x * logb(x); }
double f_fmod(double x) { return fmod(x * x, 0.7); }
double f_remainder(double x) { return remainder(3.0 * x, 1.1); }
double f_remquo(double x) { int q; double r = remquo(x, 0.45, &q); return r + 0.01 * (q & 7); }
double f_copysign(double x) { return copysign(x * x + 1, -x) + fabs(x); }
double f_fdim(double x) { return fdim(x, 0.2) + fdim(0.1, x); }
double f_cbrt(double x) { return cbrt(x); }
double f_erf(double x) { return erf(x) + erfc(2 * x); }
double f_tgamma(double x) { return tgamma(x); }
double f_lgamma(double x) { return lgamma(x); }
double f_expm1(double x) { return expm1(x) * log1p(x * x); }
double f_hyper(double x) { return sinh(x) + cosh(0.5 * x) * tanh(x); }
double f_ahyper(double x) { return asinh(x) + acosh(1 + x * x) + atanh(0.5 * x); }
double f_bases(double x) { return exp2(x) + log2(x + 2) + log10(x + 3); }
double f_rounds(double x) {
  return x * x + trunc(x) + round(3 * x) + floor(x) + ceil(x) + rint(2 * x) + nearbyint(x);
}

// ---- two arguments -------------------------------------------------------------------
double g_hypot(double x, double y) { return hypot(x, y); }
double g_atan2(double x, double y) { return atan2(y, x); }
double g_pow(double x, double y) { return pow(x, y); }
double g_minmax(double x, double y) { return fmin(x, y) * 2 + fmax(x * x, y); }
double g_fma(double x, double y) { return fma(x, y, x * y * y); }

// ---- float versions ------------------------------------------------------------------
float h_float(float x) {
  int e;
  float ip;
  float m = frexpf(x, &e);
  float fr = modff(3 * x, &ip);
  return erff(x) + tgammaf(x + 1.5f) + hypotf(x, 2.0f) + cbrtf(x) + atan2f(x, 0.7f) +
         log1pf(x) + expm1f(x) + m * (float)e + fr;
}

typedef double (*f1)(double);
typedef double (*f2)(double, double);

static double h_ = 1e-6;
static double fd1(f1 f, double x) {
  double h = h_ * fmax(1, fabs(x));
  return (f(x + h) - f(x - h)) / (2 * h);
}

// digamma(x) for x > 0: recurrence to x >= 6, then the asymptotic series.
static double digamma(double x) {
  double r = 0;
  while (x < 6) { r -= 1 / x; x += 1; }
  double f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

// The hooks name each function directly (a function chosen at run time is refused, as
// by Enzyme), so the checks are macros around the three results.
static void check1_(const char *name, f1 f, double x, double want, double g, double t) {
  char nm[64];
  snprintf(nm, sizeof nm, "%s'(%g) reverse vs analytic", name, x);
  fz_check(nm, g, want, 1e-9);
  snprintf(nm, sizeof nm, "%s'(%g) reverse vs fd", name, x);
  fz_check(nm, g, fd1(f, x), 1e-6);
  snprintf(nm, sizeof nm, "%s'(%g) forward = reverse", name, x);
  fz_check(nm, t, g, 1e-13);
}
#define check1(name, f, x, want)                                                         \
  check1_(name, f, x, want, __enzyme_autodiff((void *)f, x),                             \
          __enzyme_fwddiff((void *)f, x, 1.0))

static f2 cur2;
static double cy, cx;
static double in_x(double x) { return cur2(x, cy); }
static double in_y(double y) { return cur2(cx, y); }

static void check2_(const char *name, f2 f, double x, double y, double wx, double wy,
                    fz_grad2 g, double tx, double ty) {
  char nm[64];
  cur2 = f, cx = x, cy = y;
  snprintf(nm, sizeof nm, "%s d/dx", name);
  fz_check(nm, g.d0, wx, 1e-9);
  snprintf(nm, sizeof nm, "%s d/dy", name);
  fz_check(nm, g.d1, wy, 1e-9);
  snprintf(nm, sizeof nm, "%s d/dx fd", name);
  fz_check(nm, g.d0, fd1(in_x, x), 1e-6);
  snprintf(nm, sizeof nm, "%s d/dy fd", name);
  fz_check(nm, g.d1, fd1(in_y, y), 1e-6);
  snprintf(nm, sizeof nm, "%s forward = reverse", name);
  fz_check(nm, tx + 2 * ty, g.d0 + 2 * g.d1, 1e-13);
}
#define check2(name, f, x, y, wx, wy)                                                    \
  check2_(name, f, x, y, wx, wy, __enzyme_autodiff2((void *)f, x, y),                    \
          __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0), __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0))

int main(void) {
  volatile double v = 0.37; // not a constant the optimizer could fold
  double x = v, m;
  int e;
  m = frexp(x, &e);
  check1("frexp", f_frexp, x, 2 * m * ldexp(1.0, -e));
  check1("ldexp", f_ldexp, x, 16 * x + 0.25);
  check1("modf", f_modf, 2.3 + x, 2 * (fmod(2.3 + x, 1.0)));
  check1("scalbn", f_scalbn, x, 16 * cos(x));
  check1("logb", f_logb, 5 * x, logb(5 * x));
  check1("fmod", f_fmod, 1.1 + x, 2 * (1.1 + x));
  check1("remainder", f_remainder, x, 3.0);
  check1("remquo", f_remquo, 1.0 + x, 1.0);
  check1("copysign", f_copysign, x, -2 * x + 1);
  check1("fdim", f_fdim, x, 1.0);
  check1("cbrt", f_cbrt, x, 1.0 / (3 * cbrt(x) * cbrt(x)));
  check1("erf+erfc", f_erf, x,
         2 / sqrt(M_PI) * exp(-x * x) - 2 * 2 / sqrt(M_PI) * exp(-4 * x * x));
  check1("tgamma", f_tgamma, 2.5 + x, tgamma(2.5 + x) * digamma(2.5 + x));
  check1("lgamma", f_lgamma, 0.6 + x, digamma(0.6 + x));
  check1("expm1*log1p", f_expm1, x,
         exp(x) * log1p(x * x) + expm1(x) * 2 * x / (1 + x * x));
  check1("sinh/cosh/tanh", f_hyper, x,
         cosh(x) + 0.5 * sinh(0.5 * x) * tanh(x) + cosh(0.5 * x) / (cosh(x) * cosh(x)));
  check1("asinh/acosh/atanh", f_ahyper, x,
         1 / sqrt(x * x + 1) + 2 * x / sqrt((1 + x * x) * (1 + x * x) - 1) +
             0.5 / (1 - 0.25 * x * x));
  check1("exp2/log2/log10", f_bases, x,
         exp2(x) * M_LN2 + 1 / ((x + 2) * M_LN2) + 1 / ((x + 3) * M_LN10));
  check1("trunc/round/floor/ceil/rint", f_rounds, 0.41 + x, 2 * (0.41 + x));
  check2("hypot", g_hypot, x, 1.3, x / hypot(x, 1.3), 1.3 / hypot(x, 1.3));
  check2("atan2", g_atan2, -0.8, x, -x / (0.64 + x * x), -0.8 / (0.64 + x * x));
  check2("pow", g_pow, 1.7, x, x * pow(1.7, x - 1), pow(1.7, x) * log(1.7));
  check2("fmin/fmax", g_minmax, x, 0.9, 2.0, 1.0);
  check2("fma", g_fma, x, 1.2, 1.2 + 1.44, x + 2 * x * 1.2);
  // float: a float active argument through typed hooks; oracle in double.
  volatile float vf = 0.45f;
  float xf = vf;
  float gf = __enzyme_autodiff_f1((void *)h_float, xf);
  float tf = __enzyme_fwddiff_f1((void *)h_float, xf, 1.0f);
  double xd = xf;
  double mf;
  int ef;
  mf = frexp(xd, &ef);
  double want = 2 / sqrt(M_PI) * exp(-xd * xd) + tgamma(xd + 1.5) * digamma(xd + 1.5) +
                xd / hypot(xd, 2.0) + 1.0 / (3 * cbrt(xd) * cbrt(xd)) +
                0.7 / (0.49 + xd * xd) + 1 / (1 + xd) + exp(xd) + ldexp(1.0, -ef) * ef + 3;
  (void)mf;
  fz_check("float: reverse vs analytic (double)", gf, want, 2e-5);
  fz_check("float: forward = reverse", tf, gf, 1e-6);
  return fz_finish();
}
