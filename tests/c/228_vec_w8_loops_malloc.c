// OPT: O0 O2 O3
// Vector forward mode, width 8 (`enzyme_dup, x, dx1..dx8` spelled out),
// through a function with a malloc'd work array, a counted loop and a
// data-dependent while loop: 8 directional derivatives in one call. Each
// lane vs a scalar forward call, the analytic gradient (dot tangent) and
// directional FD.
#include "fz_test.h"
#include "fz_modes.h"

#define N 10

/* cumulative smoothed sum, then a while loop halving until below 1 */
double work(const double *x, int n) {
  double *c = (double *)malloc(sizeof(double) * (size_t)n);
  c[0] = x[0] * x[0];
  for (int i = 1; i < n; i++) c[i] = c[i - 1] + x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += sqrt(1.0 + c[i]);
  free(c);
  while (s > 1.0) s *= 0.5; /* trip count depends on x, derivative scales by 2^-k */
  return s;
}

static double X[N];
static double e_work(void *c) { (void)c; return work(X, N); }

int main(void) {
  fz_seed(228);
  double d[8][N], g[N];
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -1, 1);
    for (int l = 0; l < 8; l++) fz_fill(d[l], N, -1, 1);
    /* analytic: S = sum sqrt(1 + C_i), C_i = sum_{j<=i} x_j^2; result S / 2^k */
    double C = 0.0, S = 0.0, cs[N];
    for (int i = 0; i < N; i++) C += X[i] * X[i], cs[i] = C, S += sqrt(1.0 + C);
    double scale = 1.0;
    while (S * scale > 1.0) scale *= 0.5;
    for (int j = 0; j < N; j++) {
      g[j] = 0.0;
      for (int i = j; i < N; i++) g[j] += X[j] / sqrt(1.0 + cs[i]);
      g[j] *= scale;
    }
    fz_v8 r = __enzyme_fwddiff_v8((void *)work, enzyme_width, 8, enzyme_dup, X, d[0], d[1], d[2], d[3],
                                  d[4], d[5], d[6], d[7], enzyme_const, N);
    for (int l = 0; l < 8; l++) {
      double sc = __enzyme_fwddiff((void *)work, enzyme_dup, X, d[l], enzyme_const, N);
      fz_mcheck2("lane", r.d[l], fz_dot(g, d[l], N), 1e-12, fz_fd_dir(e_work, NULL, X, d[l], N), 1e-6);
      fz_mcheck("lane vs scalar mode", r.d[l], sc, 1e-14);
    }
    double gr[N];
    fz_zero(gr, N);
    __enzyme_autodiff((void *)work, enzyme_dup, X, gr, enzyme_const, N);
    fz_check_arr("rev gradient (analytic)", gr, g, N, 1e-12);
  }
  return fz_finish();
}
