// OPT: O0 O1 O2 O3
// The dominant eigenpair of a symmetric matrix by power iteration: normalize with
// sqrt of a dot product, a Rayleigh quotient, a do-while on the largest change of the
// iterate (fmax over fabs; data-dependent trip count, a cap), the matrix as a flat row-major array and
// the iterate swapped between two malloc'd buffers by pointer swaps. Objective:
// lambda + w^T v (v the unit eigenvector, sign fixed by v[0] > 0 through copysign).
// Oracle: d lambda / dA = v v^T (A symmetric, both triangles read: the gradient of the
// full-matrix entries), and central finite differences of the whole objective for a few
// entries (the eigenvector's derivative).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

double power_objective(const double *A, const double *w, int n, double *lambda_out) {
  double *v = malloc(n * sizeof(double)), *u = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) v[i] = 1.0 / sqrt((double)n);
  double lambda = 0, change;
  int it = 0;
  do {
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += A[i * n + j] * v[j];
      u[i] = s;
    }
    double nn = 0;
    for (int i = 0; i < n; i++) nn += u[i] * u[i];
    double inv = copysign(1.0 / sqrt(nn), u[0]);
    change = 0;
    for (int i = 0; i < n; i++) {
      u[i] *= inv;
      change = fmax(change, fabs(u[i] - v[i]));
    }
    double *t = v;
    v = u;
    u = t;
    lambda = 0;
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += A[i * n + j] * v[j];
      lambda += v[i] * s;
    }
  } while (change > 1e-15 && ++it < 5000);
  double f = lambda;
  for (int i = 0; i < n; i++) f += w[i] * v[i];
  *lambda_out = lambda;
  free(v);
  free(u);
  return f;
}

static double g_A[N * N], g_w[N], g_lam;
static double eval(void *ctx) {
  (void)ctx;
  double A2[N * N];
  memcpy(A2, g_A, sizeof A2);
  /* keep the matrix symmetric under perturbation of one triangle entry */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) A2[j * N + i] = A2[i * N + j];
  return power_objective(A2, g_w, N, &g_lam);
}

int main(void) {
  fz_seed(1172);
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      double a = fz_uniform(-1, 1) + (i == j ? (i == 0 ? 6.0 : 1.0) : 0.0);
      g_A[i * N + j] = g_A[j * N + i] = a;
    }
  double dA[N * N] = {0}, lam;
  double zero_w[N] = {0};
  __enzyme_autodiff((void *)power_objective, enzyme_dup, g_A, dA, enzyme_const, zero_w,
                    enzyme_const, N, enzyme_const, &lam);
  /* eigenvector for the analytic check */
  double v[N];
  {
    double vv[N], uu[N];
    for (int i = 0; i < N; i++) vv[i] = 1;
    for (int it = 0; it < 5000; it++) {
      double nn = 0;
      for (int i = 0; i < N; i++) {
        uu[i] = 0;
        for (int j = 0; j < N; j++) uu[i] += g_A[i * N + j] * vv[j];
        nn += uu[i] * uu[i];
      }
      for (int i = 0; i < N; i++) vv[i] = uu[i] / sqrt(nn) * (uu[0] < 0 ? -1 : 1);
    }
    memcpy(v, vv, sizeof v);
  }
  char nm[48];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      snprintf(nm, sizeof nm, "dlambda/dA[%d][%d]", i, j);
      fz_check(nm, dA[i * N + j], v[i] * v[j], 1e-9);
    }
  /* the eigenvector term through finite differences of the symmetric objective */
  fz_fill(g_w, N, -1, 1);
  double dA2[N * N] = {0};
  __enzyme_autodiff((void *)power_objective, enzyme_dup, g_A, dA2, enzyme_const, g_w,
                    enzyme_const, N, enzyme_const, &lam);
  const int probe[3][2] = {{1, 0}, {3, 2}, {4, 4}};
  for (int k = 0; k < 3; k++) {
    int i = probe[k][0], j = probe[k][1];
    double got = i == j ? dA2[i * N + j] : dA2[i * N + j] + dA2[j * N + i];
    snprintf(nm, sizeof nm, "d f / dA_sym[%d][%d] vs FD", i, j);
    fz_check(nm, got, fz_fd_ptr(eval, NULL, &g_A[i * N + j]), 1e-6);
  }
  return fz_finish();
}
