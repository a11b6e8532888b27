// OPT: O0 O1 O2 O3
// `static` caches in numerical C (sweep23): Gauss-Legendre nodes and weights computed by
// Newton's method on the first call and kept in function-local `static` arrays behind a
// `static int ready` flag, a `static` table of binomial coefficients filled lazily, and a
// call counter; the differentiated function integrates an active integrand
// (exp(-a t^2) cos(b t) on [0, 1]) and a Bernstein polynomial with active coefficients.
// The caches hold constants; the gradient is called twice (cold cache: the tables are
// built inside the differentiated call; warm: read only). Oracles: the same quadrature of
// the analytic partial derivatives of the integrand, the Bernstein polynomial's own
// closed-form derivative in each coefficient, central finite differences.
#include "fz_test.h"

#define NG 12
#define NB 6

static void gauss_legendre(double *x, double *w) {
  for (int i = 0; i < NG; i++) {
    double z = cos(M_PI * (i + 0.75) / (NG + 0.5)), dp = 0;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = 0;
      for (int j = 1; j <= NG; j++) {
        double p2 = p1;
        p1 = p0;
        p0 = ((2 * j - 1) * z * p1 - (j - 1) * p2) / j;
      }
      dp = NG * (z * p0 - p1) / (z * z - 1);
      double dz = p0 / dp;
      z -= dz;
      if (fabs(dz) < 1e-15) break;
    }
    x[i] = 0.5 * (1 - z); // mapped to [0, 1]
    w[i] = 1.0 / ((1 - z * z) * dp * dp);
  }
}

static double binom(int n, int k) {
  static double table[NB + 1][NB + 1];
  static int filled[NB + 1];
  if (!filled[n]) {
    for (int j = 0; j <= n; j++) table[n][j] = j == 0 ? 1 : table[n][j - 1] * (n - j + 1) / j;
    filled[n] = 1;
  }
  return table[n][k];
}

static long calls;

double model(const double *p, const double *c) {
  static double gx[NG], gw[NG];
  static int ready = 0;
  if (!ready) {
    gauss_legendre(gx, gw);
    ready = 1;
  }
  calls++;
  double a = p[0], b = p[1], integral = 0;
  for (int i = 0; i < NG; i++) integral += gw[i] * exp(-a * gx[i] * gx[i]) * cos(b * gx[i]);
  double t = 0.3 + 0.1 * p[0], bern = 0;
  for (int k = 0; k < NB; k++)
    bern += c[k] * binom(NB - 1, k) * pow(t, k) * pow(1 - t, NB - 1 - k);
  return integral + bern * bern;
}

static double P[2], C[NB];
static double ev(void *u) { (void)u; return model(P, C); }

int main(void) {
  P[0] = 1.3;
  P[1] = 2.2;
  fz_seed(935);
  fz_fill(C, NB, -1, 1);
  for (int round = 0; round < 2; round++) {
    double dp[2] = {0}, dc[NB] = {0};
    __enzyme_autodiff((void *)model, enzyme_dup, P, dp, enzyme_dup, C, dc);
    double gx[NG], gw[NG];
    gauss_legendre(gx, gw);
    double ia = 0, ib = 0, t = 0.3 + 0.1 * P[0], bern = 0, dbern_dt = 0;
    for (int i = 0; i < NG; i++) {
      double e = exp(-P[0] * gx[i] * gx[i]);
      ia += gw[i] * -gx[i] * gx[i] * e * cos(P[1] * gx[i]);
      ib += gw[i] * e * -gx[i] * sin(P[1] * gx[i]);
    }
    double basis[NB];
    for (int k = 0; k < NB; k++) {
      double bin = 1;
      for (int j = 1; j <= k; j++) bin = bin * (NB - j) / j;
      basis[k] = bin * pow(t, k) * pow(1 - t, NB - 1 - k);
      bern += C[k] * basis[k];
      dbern_dt += C[k] * bin * (k * pow(t, k - 1) * pow(1 - t, NB - 1 - k) -
                                (NB - 1 - k) * pow(t, k) * pow(1 - t, NB - 2 - k));
    }
    double want_p[2] = {ia + 2 * bern * dbern_dt * 0.1, ib}, want_c[NB];
    for (int k = 0; k < NB; k++) want_c[k] = 2 * bern * basis[k];
    fz_check_arr(round ? "warm: d/dp analytic" : "cold: d/dp analytic", dp, want_p, 2, 1e-10);
    fz_check_arr(round ? "warm: d/dc analytic" : "cold: d/dc analytic", dc, want_c, NB, 1e-10);
    double fp[2], fc[NB];
    fz_fd_grad(ev, NULL, P, 2, fp);
    fz_fd_grad(ev, NULL, C, NB, fc);
    fz_check_arr("d/dp FD", dp, fp, 2, 1e-6);
    fz_check_arr("d/dc FD", dc, fc, NB, 1e-6);
  }
  fz_check("call counter counts primal and derivative calls", (double)calls,
           2 + 2 * 2 * (2 + NB), 0);
  return fz_finish();
}
