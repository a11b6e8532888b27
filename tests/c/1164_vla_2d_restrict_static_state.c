// OPT: O0 O1 O2 O3
// C99 variably modified parameters as scientific C writes them: `double a[n][m]`,
// `const double (*restrict b)[m]`, an output `double c[restrict n][p]`, a VLA local
// `double t[n][m]` inside the function, and a `static` local counter and a static local
// cache (a table of powers filled on the first call, inactive) read by the differentiated
// code; reverse and forward mode. Oracle: analytic derivatives.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static int calls;

double vla_objective(int n, int m, int p, double a[n][m], const double (*restrict b)[p],
                     double c[restrict n][p]) {
  static double weights[8];
  static int filled = 0;
  if (!filled) {
    for (int k = 0; k < 8; k++) weights[k] = 1.0 + 0.5 * k;
    filled = 1;
  }
  calls++;
  double t[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) t[i][j] = a[i][j] * a[i][j];
  double f = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < p; k++) {
      double s = 0;
      for (int j = 0; j < m; j++) s += t[i][j] * b[j][k];
      c[i][k] = s;
      f += weights[(i + k) % 8] * s;
    }
  return f;
}

int main(void) {
  enum { NN = 3, M = 4, P = 2 };
  fz_seed(1164);
  double a[NN][M], b[M][P], c[NN][P], da[NN][M] = {{0}}, db[M][P] = {{0}}, dc[NN][P] = {{0}};
  for (int i = 0; i < NN; i++) fz_fill(a[i], M, -1, 1);
  for (int j = 0; j < M; j++) fz_fill(b[j], P, -1, 1);
  __enzyme_autodiff((void *)vla_objective, enzyme_const, NN, enzyme_const, M, enzyme_const, P,
                    enzyme_dup, a, da, enzyme_dup, b, db, enzyme_dupnoneed, c, dc);
  char nm[48];
  double w[NN][P];
  for (int i = 0; i < NN; i++)
    for (int k = 0; k < P; k++) w[i][k] = 1.0 + 0.5 * ((i + k) % 8);
  double want_t = 0, ta[NN][M], tb[M][P], tc[NN][P];
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < M; j++) {
      double want = 0;
      for (int k = 0; k < P; k++) want += w[i][k] * 2 * a[i][j] * b[j][k];
      snprintf(nm, sizeof nm, "da[%d][%d]", i, j);
      fz_check(nm, da[i][j], want, 1e-13);
      ta[i][j] = fz_uniform(-1, 1);
      want_t += ta[i][j] * want;
    }
  for (int j = 0; j < M; j++)
    for (int k = 0; k < P; k++) {
      double want = 0;
      for (int i = 0; i < NN; i++) want += w[i][k] * a[i][j] * a[i][j];
      snprintf(nm, sizeof nm, "db[%d][%d]", j, k);
      fz_check(nm, db[j][k], want, 1e-13);
      tb[j][k] = fz_uniform(-1, 1);
      want_t += tb[j][k] * want;
    }
  double t = __enzyme_fwddiff((void *)vla_objective, enzyme_const, NN, enzyme_const, M,
                              enzyme_const, P, enzyme_dup, a, ta, enzyme_dup, b, tb,
                              enzyme_dup, c, tc);
  fz_check("forward = <grad, v>", t, want_t, 1e-13);
  /* tc = d c along (ta, tb) */
  double want_c = 0, got_c = 0;
  for (int i = 0; i < NN; i++)
    for (int k = 0; k < P; k++) {
      double s = 0;
      for (int j = 0; j < M; j++) s += 2 * a[i][j] * ta[i][j] * b[j][k] + a[i][j] * a[i][j] * tb[j][k];
      want_c += s;
      got_c += tc[i][k];
    }
  fz_check("forward output tangents", got_c, want_c, 1e-13);
  fz_check("static counter advanced by the derivative calls", calls >= 2 ? 1.0 : 0.0, 1.0, 0);
  return fz_finish();
}
