// OPT: O0 O2 O3
// Forward-over-forward second derivatives of scalar functions:
// df(x) = __enzyme_fwddiff(f, x, 1.0) and __enzyme_fwddiff(df, x, 1.0) = f''(x),
// for a polynomial, sin*exp, log/sqrt, tanh, x^x (pow) and a rational
// function. Oracles: analytic f'' and FD of the analytic f'.
#include "fz_test.h"
#include "fz_modes.h"

double p(double x) { return x * x * x * x - 3.0 * x * x * x + x; }
double se(double x) { return sin(x) * exp(0.5 * x); }
double ls(double x) { return log(x) + sqrt(x); }
double th(double x) { return tanh(x); }
double xx(double x) { return pow(x, x); }
double rt(double x) { return 1.0 / (1.0 + x * x); }

double dp(double x) { return __enzyme_fwddiff((void *)p, x, 1.0); }
double dse(double x) { return __enzyme_fwddiff((void *)se, x, 1.0); }
double dls(double x) { return __enzyme_fwddiff((void *)ls, x, 1.0); }
double dth(double x) { return __enzyme_fwddiff((void *)th, x, 1.0); }
double dxx(double x) { return __enzyme_fwddiff((void *)xx, x, 1.0); }
double drt(double x) { return __enzyme_fwddiff((void *)rt, x, 1.0); }

/* analytic first derivatives (FD of these is the second oracle) */
static double p1(double x) { return 4 * x * x * x - 9 * x * x + 1; }
static double se1(double x) { return exp(0.5 * x) * (cos(x) + 0.5 * sin(x)); }
static double ls1(double x) { return 1 / x + 0.5 / sqrt(x); }
static double th1(double x) { double t = tanh(x); return 1 - t * t; }
static double xx1(double x) { return pow(x, x) * (log(x) + 1); }
static double rt1(double x) { double q = 1 + x * x; return -2 * x / (q * q); }
/* analytic second derivatives */
static double p2(double x) { return 12 * x * x - 18 * x; }
static double se2(double x) { return exp(0.5 * x) * (cos(x) - 0.75 * sin(x)); }
static double ls2(double x) { return -1 / (x * x) - 0.25 / (x * sqrt(x)); }
static double th2(double x) { double t = tanh(x); return -2 * t * (1 - t * t); }
static double xx2(double x) { double l = log(x) + 1; return pow(x, x) * (l * l + 1 / x); }
static double rt2(double x) { double q = 1 + x * x; return (6 * x * x - 2) / (q * q * q); }

#define CASE(name, f, df, f1, f2, x)                                                 \
  do {                                                                               \
    double x_ = (x);                                                                 \
    fz_mcheck2(name " f'", df(x_), f1(x_), 1e-12, fz_fd1(f, x_), 1e-6);              \
    fz_check(name " rev f' (analytic)", __enzyme_autodiff((void *)f, x_), f1(x_), 1e-12); \
    fz_mcheck2(name " f''", __enzyme_fwddiff((void *)df, x_, 1.0), f2(x_), 1e-10,     \
               fz_fd1(f1, x_), 1e-6);                                                \
  } while (0)

int main(void) {
  fz_seed(263);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(0.3, 2.0);
    CASE("poly", p, dp, p1, p2, x);
    CASE("sin*exp", se, dse, se1, se2, x);
    CASE("log+sqrt", ls, dls, ls1, ls2, x);
    CASE("tanh", th, dth, th1, th2, x - 1.0);
    CASE("x^x", xx, dxx, xx1, xx2, x);
    CASE("1/(1+x^2)", rt, drt, rt1, rt2, 2.0 * x - 2.0);
  }
  return fz_finish();
}
