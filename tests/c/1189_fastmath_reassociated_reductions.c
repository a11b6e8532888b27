// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// -ffast-math reductions the optimizer reassociates into several partial sums: a sum of
// squares, a dot product with a reciprocal (fast-math turns x / y into x * (1/y)), a
// log-sum-exp with the max found by fmax, a product reduction, and a min/max range
// with fabs; reverse and forward. Oracle: analytic gradients.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 37 };

double sumsq_dot(const double *x, const double *y, double d, int n) {
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  for (int i = 0; i < n; i++) t += x[i] * y[i] / d;
  return s + t;
}

double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

double prod_range(const double *x, int n) {
  double p = 1, lo = fabs(x[0]), hi = fabs(x[0]);
  for (int i = 0; i < n; i++) p *= 1.0 + 0.1 * x[i];
  for (int i = 1; i < n; i++) {
    double a = fabs(x[i]);
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
  }
  return p + hi - lo;
}

int main(void) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0}, d = 1.7;
  fz_seed(3);
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  char nm[48];
  double dd = __enzyme_autodiff((void *)sumsq_dot, enzyme_dup, x, dx, enzyme_dup, y, dy, d,
                                enzyme_const, N);
  double xy = 0;
  for (int i = 0; i < N; i++) xy += x[i] * y[i];
  for (int i = 0; i < N; i += 4) {
    snprintf(nm, sizeof nm, "sumsq_dot dx[%d]", i);
    fz_check(nm, dx[i], 2 * x[i] + y[i] / d, 1e-12);
    snprintf(nm, sizeof nm, "sumsq_dot dy[%d]", i);
    fz_check(nm, dy[i], x[i] / d, 1e-12);
  }
  fz_check("sumsq_dot dd", dd, -xy / (d * d), 1e-12);
  double t[N] = {0};
  t[3] = 1;
  fz_check("sumsq_dot forward", __enzyme_fwddiff((void *)sumsq_dot, x, t, y, t, d, 0.0, N),
           2 * x[3] + y[3] / d + x[3] / d, 1e-12);

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, dx, enzyme_const, N);
  double m = x[0], s = 0;
  for (int i = 1; i < N; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < N; i++) s += exp(x[i] - m);
  for (int i = 0; i < N; i += 4) {
    snprintf(nm, sizeof nm, "lse dx[%d]", i);
    fz_check(nm, dx[i], exp(x[i] - m) / s, 1e-12);
  }

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)prod_range, enzyme_dup, x, dx, enzyme_const, N);
  double p = 1;
  int ilo = 0, ihi = 0;
  for (int i = 0; i < N; i++) p *= 1.0 + 0.1 * x[i];
  for (int i = 1; i < N; i++) {
    if (fabs(x[i]) < fabs(x[ilo])) ilo = i;
    if (fabs(x[i]) > fabs(x[ihi])) ihi = i;
  }
  for (int i = 0; i < N; i += 3) {
    double want = p * 0.1 / (1.0 + 0.1 * x[i]);
    if (i == ihi) want += x[i] > 0 ? 1 : -1;
    if (i == ilo) want -= x[i] > 0 ? 1 : -1;
    snprintf(nm, sizeof nm, "prod_range dx[%d]", i);
    fz_check(nm, dx[i], want, 1e-12);
  }
  snprintf(nm, sizeof nm, "prod_range dx[hi=%d]", ihi);
  fz_check(nm, dx[ihi], p * 0.1 / (1.0 + 0.1 * x[ihi]) + (x[ihi] > 0 ? 1 : -1), 1e-12);
  snprintf(nm, sizeof nm, "prod_range dx[lo=%d]", ilo);
  fz_check(nm, dx[ilo], p * 0.1 / (1.0 + 0.1 * x[ilo]) - (x[ilo] > 0 ? 1 : -1), 1e-12);
  return fz_finish();
}
