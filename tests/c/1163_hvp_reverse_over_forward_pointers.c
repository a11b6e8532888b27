// OPT: O0 O1 O2 O3
// Hessian-vector products as users build them from the hooks, with pointer arguments:
// reverse over forward (the gradient of a function that returns the directional
// derivative __enzyme_fwddiff(f, x, v): H v lands in the outer shadow of x), forward
// over reverse (the tangent of a gradient routine that calls __enzyme_autodiff into a
// gradient buffer it zeroes first), and a full Hessian assembled column by column in a
// loop of forward-over-reverse calls. f has a data-dependent branch and a loop.
// Oracle: the analytic Hessian, and symmetry u.(H v) = v.(H u).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

enum { N = 4 };

/* f = sum_i exp(x_i x_{i+1}) + sum_i (x_i > 0 ? x_i^3 : -x_i^2) */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += exp(x[i] * x[i + 1]);
  for (int i = 0; i < n; i++) s += x[i] > 0 ? x[i] * x[i] * x[i] : -x[i] * x[i];
  return s;
}

/* directional derivative grad f . v */
double dirderiv(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

static void hessian(const double *x, double H[N][N]) {
  memset(H, 0, sizeof(double) * N * N);
  for (int i = 0; i + 1 < N; i++) {
    double e = exp(x[i] * x[i + 1]);
    H[i][i] += x[i + 1] * x[i + 1] * e;
    H[i + 1][i + 1] += x[i] * x[i] * e;
    H[i][i + 1] += e + x[i] * x[i + 1] * e;
    H[i + 1][i] += e + x[i] * x[i + 1] * e;
  }
  for (int i = 0; i < N; i++) H[i][i] += x[i] > 0 ? 6 * x[i] : -2;
}

int main(void) {
  double x[N] = {0.4, -0.7, 0.9, 0.2}, v[N] = {1.0, 0.5, -0.3, 2.0}, H[N][N];
  hessian(x, H);
  double Hv[N];
  for (int i = 0; i < N; i++) {
    Hv[i] = 0;
    for (int j = 0; j < N; j++) Hv[i] += H[i][j] * v[j];
  }
  /* reverse over forward */
  double hv_rf[N] = {0};
  __enzyme_autodiff((void *)dirderiv, enzyme_dup, x, hv_rf, enzyme_const, v, enzyme_const, N);
  fz_check_arr("reverse-over-forward H v", hv_rf, Hv, N, 1e-12);
  /* forward over reverse */
  double g[N], hv_fr[N];
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv_fr, enzyme_const, N);
  fz_check_arr("forward-over-reverse H v", hv_fr, Hv, N, 1e-12);
  /* full Hessian by columns */
  char nm[48];
  for (int j = 0; j < N; j++) {
    double e[N] = {0}, col[N];
    e[j] = 1;
    __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, e, enzyme_dup, g, col, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      snprintf(nm, sizeof nm, "H[%d][%d]", i, j);
      fz_check(nm, col[i], H[i][j], 1e-12);
    }
  }
  /* symmetry through reverse over forward with a second direction */
  double u[N] = {-0.5, 1.5, 0.25, -1.0}, hu[N] = {0};
  __enzyme_autodiff((void *)dirderiv, enzyme_dup, x, hu, enzyme_const, u, enzyme_const, N);
  double uhv = 0, vhu = 0;
  for (int i = 0; i < N; i++) uhv += u[i] * hv_rf[i], vhu += v[i] * hu[i];
  fz_check("u.(H v) = v.(H u)", uhv, vhu, 1e-12);
  return fz_finish();
}
