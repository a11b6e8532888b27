// OPT: O0 O1 O2 O3
// C error handling without setjmp: a table of kernels chosen by an integer argument
// (a constant at the call), a function with several early returns (validation, a
// singular case) and `goto cleanup` freeing two heap buffers on every path, including
// the failing one, which returns a sentinel through an out-parameter. Oracle: analytic
// for the kernels, central differences for the cleanup function.
#include "fz_test.h"

typedef double (*kernel)(double, double);
static double k_gauss(double r, double h) { return exp(-(r * r) / (h * h)); }
static double k_inverse(double r, double h) { return 1.0 / (r * r + h * h); }
static double k_cubic(double r, double h) { double q = r / h; return q < 1 ? (1 - q) * (1 - q) * (1 - q) : 0.0; }
static const kernel table[3] = {k_gauss, k_inverse, k_cubic};

double field(const double *r, double h, int which, int n) {
  if (which < 0 || which > 2) return 0.0;
  double s = 0;
  for (int i = 0; i < n; i++) s += table[which](r[i], h);
  return s;
}

/* status through *err; returns the weighted normalised sum or -1 on failure */
double normalised(const double *x, int n, int *err) {
  double *w = NULL, *y = NULL, out = -1.0;
  *err = 0;
  if (n <= 0) {
    *err = 1;
    return out;
  }
  w = malloc(n * sizeof *w);
  if (!w) goto cleanup;
  y = malloc(n * sizeof *y);
  if (!y) goto cleanup;
  double tot = 0;
  for (int i = 0; i < n; i++) {
    w[i] = 1.0 + 0.1 * i;
    y[i] = x[i] * x[i] * w[i];
    tot += y[i];
  }
  if (tot == 0.0) {
    *err = 2;
    goto cleanup;
  }
  out = 0;
  for (int i = 0; i < n; i++) out += y[i] * x[i] / tot;
cleanup:
  free(y);
  free(w);
  return out;
}

enum { N = 5 };
static double norm_ctx(void *c) {
  int e;
  return normalised((const double *)c, N, &e);
}

int main(void) {
  double r[N] = {0.3, 0.7, 0.2, 0.9, 0.5}, h = 1.1;
  char nm[64];
  const char *names[3] = {"gauss", "inverse", "cubic"};
  for (int k = 0; k < 3; k++) {
    double dr[N] = {0};
    double dh = __enzyme_autodiff((void *)field, enzyme_dup, r, dr, h, enzyme_const, k,
                                  enzyme_const, N);
    double want_h = 0;
    for (int i = 0; i < N; i++) {
      double ri = r[i], want;
      if (k == 0) want = -2 * ri / (h * h) * exp(-ri * ri / (h * h)),
                  want_h += 2 * ri * ri / (h * h * h) * exp(-ri * ri / (h * h));
      else if (k == 1) want = -2 * ri / pow(ri * ri + h * h, 2),
                       want_h += -2 * h / pow(ri * ri + h * h, 2);
      else want = -3 * (1 - ri / h) * (1 - ri / h) / h,
           want_h += 3 * (1 - ri / h) * (1 - ri / h) * ri / (h * h);
      snprintf(nm, sizeof nm, "%s dr[%d]", names[k], i);
      fz_check(nm, dr[i], want, 1e-12);
    }
    snprintf(nm, sizeof nm, "%s dh", names[k]);
    fz_check(nm, dh, want_h, 1e-12);
  }
  double x[N] = {0.4, -0.9, 1.3, 0.2, -0.6}, dx[N] = {0}, fd[N];
  int err;
  __enzyme_autodiff((void *)normalised, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, &err);
  fz_check("cleanup status", err, 0, 0);
  fz_fd_grad(norm_ctx, x, x, N, fd);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "cleanup dx[%d]", i);
    fz_check(nm, dx[i], fd[i], 1e-6);
  }
  /* the failing path: all zero inputs, the derivative is zero and the status set */
  double z[N] = {0}, dz[N] = {0};
  __enzyme_autodiff((void *)normalised, enzyme_dup, z, dz, enzyme_const, N, enzyme_const, &err);
  fz_check("failing path status", err, 2, 0);
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "failing path dz[%d]", i);
    fz_check(nm, dz[i], 0.0, 0);
  }
  return fz_finish();
}
