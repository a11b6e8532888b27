// OPT: O0 O1 O2 O3
// Root finding as written in the wild: bisection on a bracket with fabs tests and an
// early break when f(mid) is tiny, then three Newton steps to polish (the bisection's
// iterates carry no derivative: the polish gives the derivative of the root); secant
// iterations with a break on |f| < tol; a parameter-dependent bracket found by doubling
// in a while loop. Reverse mode (enzyme_out scalars) and forward mode.
// Oracle: the implicit function theorem, dx/dp = -f_p / f_x at the root.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

/* root of cos(x) - p x on [0, pi/2] */
double root_bisect(double p) {
  double lo = 0.0, hi = 1.5707963267948966;
  double flo = cos(lo) - p * lo;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    double fm = cos(mid) - p * mid;
    if (fabs(fm) < 1e-300 || hi - lo < 1e-9) break;
    if ((fm > 0) == (flo > 0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  double x = 0.5 * (lo + hi);
  for (int k = 0; k < 3; k++) x -= (cos(x) - p * x) / (-sin(x) - p);
  return x;
}

/* secant for x^3 + q x - r = 0 starting from 0 and 1 */
double root_secant(double q, double r) {
  double x0 = 0.0, x1 = 1.0;
  double f0 = -r, f1 = 1.0 + q - r;
  for (int it = 0; it < 100; it++) {
    double x2 = x1 - f1 * (x1 - x0) / (f1 - f0);
    x0 = x1;
    f0 = f1;
    x1 = x2;
    f1 = x1 * x1 * x1 + q * x1 - r;
    if (fabs(f1) < 1e-15) break;
  }
  return x1;
}

/* bracket [a, b] doubled until exp(a) < s < exp(b), then bisection and Newton: log(s) */
double log_by_bracket(double s) {
  double a = -1.0, b = 1.0;
  while (exp(b) < s) b *= 2.0;
  while (exp(a) > s) a *= 2.0;
  while (b - a > 1e-6) {
    double m = 0.5 * (a + b);
    if (exp(m) < s) a = m;
    else b = m;
  }
  double x = 0.5 * (a + b);
  for (int k = 0; k < 4; k++) x -= 1.0 - s * exp(-x);
  return x;
}

int main(void) {
  char nm[80];
  const double ps[3] = {0.2, 1.0, 3.5};
  for (int i = 0; i < 3; i++) {
    double p = ps[i], x = root_bisect(p);
    fz_check("bisect residual", cos(x) - p * x, 0.0, 1e-14);
    double want = -x / (sin(x) + p);
    snprintf(nm, sizeof nm, "bisect dx/dp (p=%g)", p);
    fz_check(nm, __enzyme_autodiff((void *)root_bisect, p), want, 1e-10);
    snprintf(nm, sizeof nm, "bisect forward dx/dp (p=%g)", p);
    fz_check(nm, __enzyme_fwddiff((void *)root_bisect, p, 1.0), want, 1e-10);
  }
  double q = 2.0, r = 4.5, x = root_secant(q, r);
  fz_check("secant residual", x * x * x + q * x - r, 0.0, 1e-13);
  fz_grad2 g = __enzyme_autodiff2((void *)root_secant, enzyme_out, q, enzyme_out, r);
  double fx = 3 * x * x + q;
  fz_check("secant dx/dq", g.d0, -x / fx, 1e-8);
  fz_check("secant dx/dr", g.d1, 1 / fx, 1e-8);
  fz_check("secant forward dx/dr", __enzyme_fwddiff((void *)root_secant, q, 0.0, r, 1.0),
           1 / fx, 1e-8);
  const double ss[3] = {0.5, 7.0, 1e5};
  for (int i = 0; i < 3; i++) {
    double s = ss[i];
    snprintf(nm, sizeof nm, "log_by_bracket(%g)", s);
    fz_check(nm, log_by_bracket(s), log(s), 1e-13);
    snprintf(nm, sizeof nm, "d log_by_bracket (%g)", s);
    fz_check(nm, __enzyme_autodiff((void *)log_by_bracket, s), 1 / s, 1e-10);
    snprintf(nm, sizeof nm, "forward d log_by_bracket (%g)", s);
    fz_check(nm, __enzyme_fwddiff((void *)log_by_bracket, s, 1.0), 1 / s, 1e-10);
  }
  return fz_finish();
}
