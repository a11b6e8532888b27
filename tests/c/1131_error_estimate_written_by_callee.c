// OPT: O0 O1 O2 O3
// The near miss of errors/const_cache_written_by_callee.c: an adaptive Simpson rule
// whose helper writes an error estimate (which depends on the differentiable
// parameter) through a pointer with no shadow, and the caller reads it back only to
// decide whether to split the interval (a comparison) and to add it to another
// shadowless running total. No derivative flows through the estimate, so the program
// must be differentiated, not refused (boost's gauss_kronrod at -O0, cxx/191, was
// refused by the first version of the audit). Oracles: the analytic derivative of the
// integral and central finite differences.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;

static double integrand(double t, double a) { return exp(a * t) * cos(t); }

__attribute__((noinline)) static double simpson(double lo, double hi, double a, double *err) {
  double mid = 0.5 * (lo + hi), h = hi - lo;
  double whole = h / 6.0 * (integrand(lo, a) + 4.0 * integrand(mid, a) + integrand(hi, a));
  double q1 = 0.5 * (lo + mid), q3 = 0.5 * (mid + hi);
  double left = h / 12.0 * (integrand(lo, a) + 4.0 * integrand(q1, a) + integrand(mid, a));
  double right = h / 12.0 * (integrand(mid, a) + 4.0 * integrand(q3, a) + integrand(hi, a));
  *err = fabs(left + right - whole) / 15.0;
  return left + right;
}

/* As boost's recursive_adaptive_integrate: the helper writes the estimate through the
 * caller's own error pointer, which the caller then reads and accumulates into. */
static double adapt(double lo, double hi, double a, double tol, double *err, int depth) {
  double s = simpson(lo, hi, a, err);
  if (*err > tol && depth < 12) {
    double mid = 0.5 * (lo + hi), err_right;
    double l = adapt(lo, mid, a, 0.5 * tol, err, depth + 1);
    double r = adapt(mid, hi, a, 0.5 * tol, &err_right, depth + 1);
    *err += err_right;
    return l + r;
  }
  return s;
}

double integral(double a, double *err_total) { return adapt(0.0, 2.0, a, 1e-9, err_total, 0); }

static double err_sink;
static double integral_at(double a) { return integral(a, &err_sink); }

int main(void) {
  double a = 0.4, err = 0;
  double d = __enzyme_autodiff((void *)integral, a, enzyme_const, &err);
  /* d/da of int_0^2 e^{a t} cos t dt = int_0^2 t e^{a t} cos t dt, in closed form */
  double e2 = exp(2.0 * a), den = a * a + 1.0;
  double F = (e2 * (a * cos(2.0) + sin(2.0)) - a) / den;
  double dF = (e2 * (2.0 * (a * cos(2.0) + sin(2.0)) + cos(2.0)) - 1.0) / den - 2.0 * a * F / den;
  fz_check("d/da analytic", d, dF, 1e-6);
  fz_check("d/da fd", d, fz_fd1(integral_at, a), 1e-6);
  fz_check("error estimate small", err < 1e-6, 1, 0);
  return fz_finish();
}
