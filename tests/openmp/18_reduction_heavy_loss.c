// OMP_THREADS: 1 2
// OPT: O0 O2
// A reduction-heavy training loss as an HPC user writes it: a linear classifier's
// softmax cross-entropy over a batch (`parallel for reduction(+:loss, correct_w)` with
// schedule(dynamic) and an inner `omp simd` reduction), a weight-decay term over the
// weight matrix with `collapse(2)`, a histogram-like gradient-statistics array reduced
// with an array-section reduction `reduction(+:colsum[:NC])`, and a `parallel` region
// with two orphaned `omp for` loops and `single`. Reverse mode is checked against
// central finite differences, forward mode against reverse (dot-product identity).
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NB 24
#define NF 5
#define NC 3

static double feats[NB][NF];
static int label[NB];

double loss_fn(const double *w, const double *bias) {
  double loss = 0, reg = 0, extra = 0;
  double colsum[NC] = {0, 0, 0};
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : loss)
  for (int n = 0; n < NB; n++) {
    double z[NC], zmax = -1e300, se = 0;
    for (int c = 0; c < NC; c++) {
      double s = bias[c];
#pragma omp simd reduction(+ : s)
      for (int f = 0; f < NF; f++) s += w[c * NF + f] * feats[n][f];
      z[c] = s;
      if (s > zmax) zmax = s;
    }
    for (int c = 0; c < NC; c++) se += exp(z[c] - zmax);
    loss += log(se) + zmax - z[label[n]];
  }
#pragma omp parallel for collapse(2) reduction(+ : reg)
  for (int c = 0; c < NC; c++)
    for (int f = 0; f < NF; f++) reg += w[c * NF + f] * w[c * NF + f] * (1.0 + 0.1 * f);
#pragma omp parallel for reduction(+ : colsum[:NC])
  for (int f = 0; f < NF; f++)
    for (int c = 0; c < NC; c++) colsum[c] += sin(w[c * NF + f]);
#pragma omp parallel
  {
    double part = 0;
#pragma omp for nowait
    for (int c = 0; c < NC; c++) part += colsum[c] * colsum[c];
#pragma omp atomic
    extra += part;
#pragma omp barrier
#pragma omp single
    extra = sqrt(1.0 + extra);
  }
  return loss / NB + 0.01 * reg + 0.1 * extra;
}

static double W[NC * NF], B[NC];
static double eval(void *ctx) {
  (void)ctx;
  return loss_fn(W, B);
}

int main(void) {
  fz_seed(18);
  for (int n = 0; n < NB; n++) {
    for (int f = 0; f < NF; f++) feats[n][f] = fz_uniform(-1, 1);
    label[n] = n % NC;
  }
  fz_fill(W, NC * NF, -0.5, 0.5);
  fz_fill(B, NC, -0.1, 0.1);
  double dW[NC * NF], dB[NC];
  fz_zero(dW, NC * NF);
  fz_zero(dB, NC);
  __enzyme_autodiff((void *)loss_fn, enzyme_dup, W, dW, enzyme_dup, B, dB);
  for (int k = 0; k < NC * NF; k++) {
    char name[32];
    snprintf(name, sizeof name, "dW[%d] vs fd", k);
    fz_check(name, dW[k], fz_fd_ptr(eval, 0, &W[k]), 1e-6);
  }
  for (int c = 0; c < NC; c++) {
    char name[32];
    snprintf(name, sizeof name, "dB[%d] vs fd", c);
    fz_check(name, dB[c], fz_fd_ptr(eval, 0, &B[c]), 1e-6);
  }
  double vW[NC * NF], vB[NC], dot = 0;
  fz_fill(vW, NC * NF, -1, 1);
  fz_fill(vB, NC, -1, 1);
  for (int k = 0; k < NC * NF; k++) dot += dW[k] * vW[k];
  for (int c = 0; c < NC; c++) dot += dB[c] * vB[c];
  double jvp = __enzyme_fwddiff((void *)loss_fn, enzyme_dup, W, vW, enzyme_dup, B, vB);
  fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
