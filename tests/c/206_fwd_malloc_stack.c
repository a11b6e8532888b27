// OPT: O0 O1 O2 O3
// Forward mode through heap and stack temporaries inside f: a malloc'd
// prefix-product buffer (freed before return), a fixed-size stack array,
// a VLA, and calloc. Oracles: analytic derivative and directional finite
// differences; dot identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define N 8

/* sum_k prod_{i<=k} x_i, via a heap buffer of prefix products */
double prefix_prod_sum(const double *x, int n) {
  double *p = (double *)malloc(sizeof(double) * (size_t)n);
  p[0] = x[0];
  for (int i = 1; i < n; i++) p[i] = p[i - 1] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += p[i];
  free(p);
  return s;
}

/* stack array + VLA + calloc: softened smooth max of pairwise sums */
double stack_mix(const double *x, int n) {
  double tmp[16];
  double vla[n];
  double *acc = (double *)calloc((size_t)n, sizeof(double));
  for (int i = 0; i < n; i++) tmp[i] = x[i] + x[(i + 1) % n];
  for (int i = 0; i < n; i++) vla[i] = exp(0.5 * tmp[i]);
  for (int i = 0; i < n; i++) acc[i] += vla[i] * tmp[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += acc[i];
  free(acc);
  return s;
}

static double X[N];
static double e_pps(void *c) { (void)c; return prefix_prod_sum(X, N); }
static double e_mix(void *c) { (void)c; return stack_mix(X, N); }

int main(void) {
  fz_seed(206);
  double v[N], g[N], g2[N];
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, 0.5, 1.5);
    fz_fill(v, N, -1, 1);
    /* d/dx_j sum_k P_k = sum_{k>=j} P_k / x_j */
    for (int j = 0; j < N; j++) {
      double p = 1.0;
      g[j] = 0.0;
      for (int k = 0; k < N; k++) {
        p *= X[k];
        if (k >= j) g[j] += p / X[j];
      }
    }
    double jv = __enzyme_fwddiff((void *)prefix_prod_sum, enzyme_dup, X, v, enzyme_const, N);
    fz_mcheck2("prefix_prod_sum Jv", jv, fz_dot(g, v, N), 1e-12, fz_fd_dir(e_pps, NULL, X, v, N),
               1e-6);
    fz_zero(g2, N);
    __enzyme_autodiff((void *)prefix_prod_sum, enzyme_dup, X, g2, enzyme_const, N);
    fz_check_arr("rev prefix_prod_sum", g2, g, N, 1e-12);
    double w = 1.0;
    fz_mcheck_dot("prefix_prod_sum", v, g2, N, &jv, &w, 1, 1e-10);

    /* s = sum_i e^{t_i/2} t_i, t_i = x_i + x_{i+1}: ds/dt_i = e^{t_i/2}(1 + t_i/2) */
    fz_fill(X, N, -1, 1);
    fz_zero(g, N);
    for (int i = 0; i < N; i++) {
      double ti = X[i] + X[(i + 1) % N], d = exp(0.5 * ti) * (1.0 + 0.5 * ti);
      g[i] += d;
      g[(i + 1) % N] += d;
    }
    jv = __enzyme_fwddiff((void *)stack_mix, enzyme_dup, X, v, enzyme_const, N);
    fz_mcheck2("stack_mix Jv", jv, fz_dot(g, v, N), 1e-12, fz_fd_dir(e_mix, NULL, X, v, N), 1e-6);
    fz_zero(g2, N);
    __enzyme_autodiff((void *)stack_mix, enzyme_dup, X, g2, enzyme_const, N);
    fz_check_arr("rev stack_mix", g2, g, N, 1e-12);
    fz_mcheck_dot("stack_mix", v, g2, N, &jv, &w, 1, 1e-10);
  }
  return fz_finish();
}
