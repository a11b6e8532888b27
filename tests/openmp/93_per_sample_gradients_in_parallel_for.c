// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Per-sample gradients computed in parallel, as a scientist batches them: a `parallel
// for schedule(dynamic)` over samples, each thread calling __enzyme_autodiff and
// __enzyme_fwddiff on a sample's loss (the derivative's tape and runtime used by several
// threads at once), the loss a small recurrent model whose loop exits early on a
// data-dependent test (a taped trip count) and which has an OpenMP region of its own
// (nested inside the outer region: a team of one), the batch gradient summed with an
// array-section reduction `reduction(+: gsum[:D + 1])`. Each sample's gradient against
// central finite differences, its tangent against the gradient (dot product), and the
// batch sum against the serial sum of the per-sample gradients.
#include <omp.h>
#include <math.h>
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define S 16
#define D 7

double sample_loss(const double *w, const double *x, int steps) {
  double h = 0;
  for (int t = 0; t < steps; t++) {
    double a = 0;
    for (int k = 0; k < D; k++) a += w[k] * x[(k + t) % D];
    h = tanh(a + w[D] * h);
    if (h > 0.9) break;
  }
  double r = 0;
#pragma omp parallel for reduction(+ : r)
  for (int k = 0; k < D; k++) r += 0.01 * w[k] * w[k];
  return (h - 0.3) * (h - 0.3) + r;
}

int main(void) {
  fz_seed(93);
  double w[D + 1], xs[S][D], g[S][D + 1], v[D + 1], jv[S], gsum[D + 1] = {0};
  fz_fill(w, D + 1, -0.5, 0.5);
  fz_fill(v, D + 1, -1, 1);
  for (int s = 0; s < S; s++) fz_fill(xs[s], D, -1, 1);
#pragma omp parallel for schedule(dynamic) reduction(+ : gsum[:D + 1])
  for (int s = 0; s < S; s++) {
    for (int k = 0; k <= D; k++) g[s][k] = 0;
    __enzyme_autodiff((void *)sample_loss, enzyme_dup, w, g[s], enzyme_const, xs[s], enzyme_const, 3 + s % 5);
    jv[s] = __enzyme_fwddiff((void *)sample_loss, enzyme_dup, w, v, enzyme_const, xs[s], enzyme_const, 3 + s % 5);
    for (int k = 0; k <= D; k++) gsum[k] += g[s][k];
  }
  double want[D + 1] = {0};
  for (int s = 0; s < S; s++) {
    double dot = 0;
    for (int k = 0; k <= D; k++) {
      double t = w[k], h = fz_step(t, 1e-6);
      w[k] = t + h;
      double fp = sample_loss(w, xs[s], 3 + s % 5);
      w[k] = t - h;
      double fm = sample_loss(w, xs[s], 3 + s % 5);
      w[k] = t;
      fz_check("sample gradient vs fd", g[s][k], (fp - fm) / (2 * h), 1e-6);
      dot += g[s][k] * v[k];
      want[k] += g[s][k];
    }
    fz_check("sample forward . v = reverse . v", jv[s], dot, 1e-10);
  }
  fz_check_arr("batch sum", gsum, want, D + 1, 1e-12);
  return fz_finish();
}
