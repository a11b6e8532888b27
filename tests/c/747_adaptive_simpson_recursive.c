// OPT: O0 O1 O2 O3
// Recursive adaptive Simpson quadrature of an integrand with active parameters, the
// integrand passed as a function pointer with a `void *` parameter block (the usual C
// callback idiom), the recursion depth decided by the error estimate. The derivative of
// the program is the derivative of the quadrature actually evaluated, so it is checked
// against finite differences and (to the quadrature's tolerance) against the analytic
// integral of the parameter derivative.
#include "fz_test.h"

typedef double (*integrand)(double, const void *);
typedef struct { double a, w; } params; /* f(x) = exp(-a x^2) cos(w x) */

static double gauss_cos(double x, const void *p) {
  const params *q = (const params *)p;
  return exp(-q->a * x * x) * cos(q->w * x);
}

static double simpson(integrand f, const void *p, double a, double b, double fa, double fm,
                      double fb) {
  return (b - a) / 6.0 * (fa + 4.0 * fm + fb);
}

static double adapt(integrand f, const void *p, double a, double b, double fa, double fm,
                    double fb, double whole, double eps, int depth) {
  double m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double flm = f(lm, p), frm = f(rm, p);
  double left = simpson(f, p, a, m, fa, flm, fm), right = simpson(f, p, m, b, fm, frm, fb);
  double delta = left + right - whole;
  if (depth <= 0 || fabs(delta) <= 15.0 * eps) return left + right + delta / 15.0;
  return adapt(f, p, a, m, fa, flm, fm, left, 0.5 * eps, depth - 1) +
         adapt(f, p, m, b, fm, frm, fb, right, 0.5 * eps, depth - 1);
}

double integrate(const params *p, double lo, double hi) {
  double fa = gauss_cos(lo, p), fb = gauss_cos(hi, p), fm = gauss_cos(0.5 * (lo + hi), p);
  double whole = simpson(gauss_cos, p, lo, hi, fa, fm, fb);
  return adapt(gauss_cos, p, lo, hi, fa, fm, fb, whole, 1e-10, 30);
}

static params P = {0.7, 1.3};
static double eval(void *ctx) { (void)ctx; return integrate(&P, -3.0, 3.0); }

/* d/da and d/dw of the integrand, integrated by a fine composite Simpson rule */
static double dref(int which) {
  const int n = 20000;
  double h = 6.0 / n, s = 0;
  for (int i = 0; i <= n; i++) {
    double x = -3.0 + i * h, e = exp(-P.a * x * x);
    double v = which == 0 ? -x * x * e * cos(P.w * x) : -x * e * sin(P.w * x);
    s += v * (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2));
  }
  return s * h / 3.0;
}

int main(void) {
  params dP = {0, 0};
  __enzyme_autodiff((void *)integrate, enzyme_dup, &P, &dP, enzyme_const, -3.0, enzyme_const,
                    3.0);
  fz_check("d/da (fd)", dP.a, fz_fd_ptr(eval, NULL, &P.a), 1e-6);
  fz_check("d/dw (fd)", dP.w, fz_fd_ptr(eval, NULL, &P.w), 1e-6);
  fz_check("d/da (integral of df/da)", dP.a, dref(0), 1e-7);
  fz_check("d/dw (integral of df/dw)", dP.w, dref(1), 1e-7);
  return fz_finish();
}
