// OPT: O0 O1 O2 O3
// __enzyme_autodiff called inside a loop over many samples: per-sample gradients of a
// logistic loss accumulated into one parameter shadow (not zeroed between calls:
// gradients add), the sample's features enzyme_const, and a scratch buffer passed
// enzyme_const that the function WRITES and reads back (constant memory: its values
// carry no derivative, so the function must not route derivatives through it; here it
// holds only sample data). Also each sample's gradient separately (shadow zeroed), their
// sum checked against the accumulated one. Oracle: analytic logistic-regression gradient.
#include "fz_test.h"

enum { D = 4, M = 64 };

double sample_loss(const double *w, const double *xi, double yi, double *scratch, int d) {
  /* scratch: the features scaled (constant data only) */
  for (int j = 0; j < d; j++) scratch[j] = xi[j] * (1.0 + 0.5 * j);
  double z = 0;
  for (int j = 0; j < d; j++) z += w[j] * scratch[j];
  double p = 1.0 / (1.0 + exp(-z));
  return -(yi * log(p) + (1 - yi) * log(1 - p)) + 0.01 * w[0] * w[0];
}

int main(void) {
  double X[M][D], y[M], w[D] = {0.3, -0.2, 0.5, 0.1};
  fz_seed(7);
  for (int i = 0; i < M; i++) {
    fz_fill(X[i], D, -1, 1);
    y[i] = fz_uniform(0, 1) < 0.5 ? 0.0 : 1.0;
  }
  double scratch[D];
  double gacc[D] = {0}, gsum[D] = {0}, want[D] = {0};
  for (int i = 0; i < M; i++)
    __enzyme_autodiff((void *)sample_loss, enzyme_dup, w, gacc, enzyme_const, X[i],
                      enzyme_const, y[i], enzyme_const, scratch, enzyme_const, D);
  for (int i = 0; i < M; i++) {
    double g[D] = {0};
    __enzyme_autodiff((void *)sample_loss, enzyme_dup, w, g, enzyme_const, X[i],
                      enzyme_const, y[i], enzyme_const, scratch, enzyme_const, D);
    double z = 0;
    for (int j = 0; j < D; j++) z += w[j] * X[i][j] * (1.0 + 0.5 * j);
    double p = 1.0 / (1.0 + exp(-z));
    for (int j = 0; j < D; j++) {
      double wj = (p - y[i]) * X[i][j] * (1.0 + 0.5 * j) + (j == 0 ? 0.02 * w[0] : 0.0);
      want[j] += wj;
      gsum[j] += g[j];
      if (i % 16 == 0) {
        char nm[48];
        snprintf(nm, sizeof nm, "sample %d dw[%d]", i, j);
        fz_check(nm, g[j], wj, 1e-12);
      }
    }
  }
  char nm[48];
  for (int j = 0; j < D; j++) {
    snprintf(nm, sizeof nm, "accumulated dw[%d]", j);
    fz_check(nm, gacc[j], want[j], 1e-12);
    snprintf(nm, sizeof nm, "summed dw[%d]", j);
    fz_check(nm, gsum[j], want[j], 1e-12);
  }
  return fz_finish();
}
