// OPT: O0 O1 O2 O3
// Hessian-vector products in C, forward over reverse, as Enzyme's docs write them: a
// `grad` function calling __enzyme_autodiff of the extended Rosenbrock function (with a
// `const` weights array and an int n), and __enzyme_fwddiff of `grad` along v. The
// whole Hessian is assembled column by column (v = e_k) and compared with the analytic
// tridiagonal Hessian; its symmetry and H v for a dense v too. Oracle: closed form.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

enum { N = 6 };

double rosen(const double *x, const double *w, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    f += w[i] * (100 * a * a + b * b);
  }
  return f;
}

void grad(const double *x, double *g, const double *w, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g, enzyme_const, w, enzyme_const, n);
}

static void hess_exact(const double *x, const double *w, double H[N][N]) {
  memset(H, 0, sizeof(double) * N * N);
  for (int i = 0; i + 1 < N; i++) {
    /* term w (100 (x1 - x0^2)^2 + (1 - x0)^2), x0 = x[i], x1 = x[i+1] */
    double x0 = x[i], x1 = x[i + 1];
    H[i][i] += w[i] * (1200 * x0 * x0 - 400 * x1 + 2);
    H[i][i + 1] += w[i] * (-400 * x0);
    H[i + 1][i] += w[i] * (-400 * x0);
    H[i + 1][i + 1] += w[i] * 200;
  }
}

int main(void) {
  double x[N] = {-1.2, 1.0, 0.8, 0.5, 1.3, 0.9};
  double w[N] = {1.0, 0.5, 2.0, 1.5, 0.75, 0};
  double H[N][N], Hc[N][N];
  hess_exact(x, w, H);
  char nm[48];
  for (int k = 0; k < N; k++) {
    double v[N] = {0}, g[N], hv[N];
    v[k] = 1;
    __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, w,
                          enzyme_const, N);
    for (int i = 0; i < N; i++) {
      Hc[i][k] = hv[i];
      snprintf(nm, sizeof nm, "H[%d][%d]", i, k);
      fz_check(nm, hv[i], H[i][k], 1e-9);
    }
  }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < i; k++) {
      snprintf(nm, sizeof nm, "symmetric %d %d", i, k);
      fz_check(nm, Hc[i][k], Hc[k][i], 1e-9);
    }
  double v[N] = {0.3, -0.7, 1.1, 0.2, -0.4, 0.6}, g[N], hv[N];
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, w,
                        enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double want = 0;
    for (int k = 0; k < N; k++) want += H[i][k] * v[k];
    snprintf(nm, sizeof nm, "Hv[%d]", i);
    fz_check(nm, hv[i], want, 1e-9);
  }
  /* g is the gradient itself */
  double g0 = -400 * w[0] * x[0] * (x[1] - x[0] * x[0]) - 2 * w[0] * (1 - x[0]);
  fz_check("g[0] primal of grad", g[0], g0, 1e-10);
  return fz_finish();
}
