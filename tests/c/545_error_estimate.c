// OPT: O0 O2
// LLI: O0 O2
// CFLAGS: -ffp-contract=off
// ARGS: -lmpfr
// Enzyme's floating-point error estimation, __enzyme_error_estimate(f, x, err_x, ...):
// forward propagation of absolute error, e_r = sum_i |df/dx_i| e_i + eps |r| per
// operation (eps = machine epsilon of the type). Oracles:
//  * the model written out by hand for each function (independent of the pass), to 1e-12
//    relative (-ffp-contract=off keeps the operations the ones written: a fused multiply-
//    add would round once instead of twice);
//  * Enzyme's own published value for (1 - cos x) / x^2 at x = 1e-7 (2.2222e-2, 1e-4);
//  * MPFR at 256 bits: the error the double (or float) computation really makes is at most
//    the estimate, for the cancellation example, a product-quotient, a float loop and a
//    narrowing to float.
#include <mpfr.h>
#include "fz_test.h"

extern double __enzyme_error_estimate(void *, ...);
extern float __enzyme_error_estimatef(void *, ...);

static const double EPS = 2.220446049250313e-16; /* 2^-52 */
static const double EPSF = 1.1920928955078125e-07; /* 2^-23 */

double cancel(double x) {
  double v1 = cos(x);
  double v2 = 1 - v1;
  double v3 = x * x;
  return v2 / v3;
}

double prodquot(double x, double y) {
  double m = x * y;
  double s = sin(x);
  double q = s / y;
  return m + q;
}

/* A loop through memory: partial sums of 1/(k^2 + c) in single precision. */
__attribute__((noinline)) void fill(float *buf, float c, int n) {
  for (int k = 0; k < n; k++) buf[k] = 1.0f / ((float)(k + 1) * (float)(k + 1) + c);
}
float series(float c, int n) {
  float buf[64];
  fill(buf, c, n);
  float s = 0.0f;
  for (int k = 0; k < n; k++) s = s + buf[k];
  return s;
}

/* Narrowing rounds: (double)(float)x * 2. */
double narrow(double x) {
  float f = (float)x;
  return (double)f * 2.0;
}

static void check_le(const char *what, double actual, double estimate) {
  printf("         %s: actual %.3e <= estimate %.3e\n", what, actual, estimate);
  fz_check(what, actual <= estimate ? 1.0 : 0.0, 1.0, 0.0);
}

int main(void) {
  mpfr_set_default_prec(256);
  mpfr_t a, b, t, u;
  mpfr_inits(a, b, t, u, (mpfr_ptr)0);

  /* (1 - cos x) / x^2 */
  double x = 1e-7;
  double e = __enzyme_error_estimate((void *)cancel, x, 0.0);
  double v1 = cos(x), v2 = 1 - v1, v3 = x * x, r = v2 / v3;
  double e1 = EPS * fabs(v1);
  double e2 = e1 + EPS * fabs(v2);
  double e3 = 0 + EPS * fabs(v3);
  double model = fabs(1 / v3) * e2 + fabs(v2 / (v3 * v3)) * e3 + EPS * fabs(r);
  fz_check("cancel: model by hand (ratio)", e / model, 1.0, 1e-12);
  fz_check("cancel: Enzyme's published 2.2222e-2", e, 2.2222222222e-2, 1e-4);
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_cos(t, a, MPFR_RNDN);
  mpfr_ui_sub(t, 1, t, MPFR_RNDN);
  mpfr_sqr(u, a, MPFR_RNDN);
  mpfr_div(t, t, u, MPFR_RNDN);
  mpfr_sub_d(t, t, cancel(x), MPFR_RNDN);
  check_le("cancel: MPFR error <= estimate", fabs(mpfr_get_d(t, MPFR_RNDN)), e);

  /* x*y + sin(x)/y with input errors */
  double px = 0.7, py = -1.3, ex = 1e-10, ey = 3e-11;
  e = __enzyme_error_estimate((void *)prodquot, px, ex, py, ey);
  double m = px * py, s = sin(px), q = s / py, rr = m + q;
  double em = fabs(py) * ex + fabs(px) * ey + EPS * fabs(m);
  double es = fabs(cos(px)) * ex + EPS * fabs(s);
  double eq = fabs(1 / py) * es + fabs(s / (py * py)) * ey + EPS * fabs(q);
  fz_check("prodquot: model by hand (ratio)", e / (em + eq + EPS * fabs(rr)), 1.0, 1e-12);
  /* Exact inputs: the estimate bounds the rounding the computation really does. */
  e = __enzyme_error_estimate((void *)prodquot, px, 0.0, py, 0.0);
  mpfr_set_d(a, px, MPFR_RNDN);
  mpfr_set_d(b, py, MPFR_RNDN);
  mpfr_mul(t, a, b, MPFR_RNDN);
  mpfr_sin(u, a, MPFR_RNDN);
  mpfr_div(u, u, b, MPFR_RNDN);
  mpfr_add(t, t, u, MPFR_RNDN);
  mpfr_sub_d(t, t, prodquot(px, py), MPFR_RNDN);
  check_le("prodquot: MPFR error <= estimate", fabs(mpfr_get_d(t, MPFR_RNDN)), e);

  /* float loop through memory and a callee */
  float c = 0.3f;
  int n = 40;
  float ef = __enzyme_error_estimatef((void *)series, c, 0.0f, n);
  double want = 0, acc = 0;
  for (int k = 0; k < n; k++) {
    float den = (float)(k + 1) * (float)(k + 1) + c;
    float term = 1.0f / den;
    /* den = (k+1)^2 + c: the product does not depend on c (not tracked: the model follows
       the values the result depends on through the inputs), c is exact; the sum rounds. */
    double eden = EPSF * fabs((double)den);
    double eterm = fabs(1.0 / ((double)den * den)) * eden + EPSF * fabs((double)term);
    float sum = (float)acc + term;
    want = want + eterm + EPSF * fabs((double)sum);
    acc = sum;
  }
  fz_check("series: model by hand (ratio)", (double)ef / want, 1.0, 1e-5);
  mpfr_set_d(t, 0, MPFR_RNDN);
  for (int k = 0; k < n; k++) {
    mpfr_set_ui(u, (unsigned long)(k + 1) * (k + 1), MPFR_RNDN);
    mpfr_add_d(u, u, (double)c, MPFR_RNDN);
    mpfr_ui_div(u, 1, u, MPFR_RNDN);
    mpfr_add(t, t, u, MPFR_RNDN);
  }
  mpfr_sub_d(t, t, (double)series(c, n), MPFR_RNDN);
  check_le("series: MPFR error <= estimate", fabs(mpfr_get_d(t, MPFR_RNDN)), (double)ef);
  /* fptrunc adds float rounding, fpext is exact, the product adds double rounding. */
  double xn = 0.1;
  e = __enzyme_error_estimate((void *)narrow, xn, 0.0);
  float fn = (float)xn;
  fz_check("narrow: model by hand (ratio)",
           e / (2.0 * (EPSF * fabs((double)fn)) + EPS * fabs((double)fn * 2.0)), 1.0, 1e-12);
  mpfr_set_d(t, xn, MPFR_RNDN);
  mpfr_mul_ui(t, t, 2, MPFR_RNDN);
  mpfr_sub_d(t, t, narrow(xn), MPFR_RNDN);
  check_le("narrow: MPFR error <= estimate", fabs(mpfr_get_d(t, MPFR_RNDN)), e);
  mpfr_clears(a, b, t, u, (mpfr_ptr)0);
  return fz_finish();
}
