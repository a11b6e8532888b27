// OPT: O0 O1 O2 O3
// Hessian-vector products of a log-sum-exp with a malloc'd work array and a static
// helper, by forward mode over reverse mode (__enzyme_fwddiff of a function calling
// __enzyme_autodiff), the full Hessian column by column, as Enzyme users write it.
// Oracle: the analytic Hessian diag(p) - p p^T (p the softmax) plus a quartic term's
// diagonal.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
extern void __enzyme_fwddiff_void(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);

static double max_of(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  return m;
}

double lse(const double *x, int n) {
  double *e = malloc(n * sizeof *e);
  double m = max_of(x, n), s = 0;
  for (int i = 0; i < n; i++) {
    e[i] = exp(x[i] - m);
    s += e[i];
  }
  double q = 0;
  for (int i = 0; i < n; i++) q += 0.25 * x[i] * x[i] * x[i] * x[i];
  free(e);
  return m + log(s) + q;
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff_void((void *)lse, enzyme_dup, x, g, enzyme_const, n);
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.2, -0.5, 1.1, 0.7, -1.4}, g[N], p[N], z = 0;
  double m = max_of(x, N);
  for (int i = 0; i < N; i++) z += exp(x[i] - m);
  for (int i = 0; i < N; i++) p[i] = exp(x[i] - m) / z;
  grad(x, g, N);
  for (int i = 0; i < N; i++) {
    char b[32];
    snprintf(b, sizeof b, "grad[%d]", i);
    fz_check(b, g[i], p[i] + x[i] * x[i] * x[i], 1e-13);
  }
  for (int j = 0; j < N; j++) {
    double v[N] = {0}, gg[N], hv[N] = {0};
    v[j] = 1;
    __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, gg, hv, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      double want = (i == j ? p[i] + 3 * x[i] * x[i] : 0) - p[i] * p[j];
      char b[32];
      snprintf(b, sizeof b, "H[%d][%d]", i, j);
      fz_check(b, hv[i], want, 1e-12);
    }
  }
  return fz_finish();
}
