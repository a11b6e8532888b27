// OPT: O0 O2
// ARGS: -lopenblas
// A two-layer perceptron written with CBLAS calls as numerical C does (OpenBLAS):
// h = tanh(W1 x + b1) by cblas_dgemv (row-major) after cblas_dcopy of the bias, the
// output layer by cblas_ddot with a stride (the weights stored interleaved with their
// momenta: incx = 2), a residual scaled by cblas_dscal and accumulated by cblas_daxpy,
// and an L2 penalty by cblas_dnrm2 on a column of a column-major matrix (stride = ld).
// Reverse mode for every weight, forward mode along a random direction.
// Oracle: the same network written as loops (central differences of it), and the
// dot-product identity <J v, w> = <v, J^T w> between forward and reverse.
#include "fz_test.h"
#include <cblas.h>

extern double __enzyme_fwddiff(void *, ...);

enum { NI = 4, NH = 5, NB = 3 }; // inputs, hidden units, batch

static double X[NB][NI], Y[NB];

// w1: NH x NI row-major; b1: NH; w2m: 2*NH (weight, momentum interleaved); P: NH x 2
// column-major (ld = NH), its column 1 penalised.
double loss_blas(const double *w1, const double *b1, const double *w2m, const double *P,
                 double lam) {
  double h[NH], r[NB], acc[NB] = {0};
  for (int b = 0; b < NB; b++) {
    cblas_dcopy(NH, b1, 1, h, 1);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, NH, NI, 1.0, w1, NI, X[b], 1, 1.0, h, 1);
    for (int k = 0; k < NH; k++) h[k] = tanh(h[k]);
    double out = cblas_ddot(NH, w2m, 2, h, 1);
    r[b] = out - Y[b];
  }
  cblas_dscal(NB, 0.5, r, 1);
  cblas_daxpy(NB, 2.0, r, 1, acc, 1); // acc = r (the 0.5 undone)
  double pen = cblas_dnrm2(NH, P + NH, 1);
  return cblas_ddot(NB, acc, 1, acc, 1) + lam * pen * pen;
}

double loss_loops(const double *w1, const double *b1, const double *w2m, const double *P,
                  double lam) {
  double s = 0;
  for (int b = 0; b < NB; b++) {
    double out = 0;
    for (int k = 0; k < NH; k++) {
      double a = b1[k];
      for (int i = 0; i < NI; i++) a += w1[k * NI + i] * X[b][i];
      out += w2m[2 * k] * tanh(a);
    }
    double r = out - Y[b];
    s += r * r;
  }
  double pen = 0;
  for (int k = 0; k < NH; k++) pen += P[NH + k] * P[NH + k];
  return s + lam * pen;
}

static double W1[NH * NI], B1[NH], W2M[2 * NH], PP[2 * NH], LAM = 0.3;
static double eval_loops(void *c) { (void)c; return loss_loops(W1, B1, W2M, PP, LAM); }

int main(void) {
  fz_seed(1282);
  fz_fill(&X[0][0], NB * NI, -1, 1);
  fz_fill(Y, NB, -1, 1);
  fz_fill(W1, NH * NI, -0.7, 0.7);
  fz_fill(B1, NH, -0.3, 0.3);
  fz_fill(W2M, 2 * NH, -1, 1);
  fz_fill(PP, 2 * NH, -1, 1);
  fz_check("primal: blas = loops", loss_blas(W1, B1, W2M, PP, LAM),
           loss_loops(W1, B1, W2M, PP, LAM), 1e-13);
  double dW1[NH * NI] = {0}, dB1[NH] = {0}, dW2M[2 * NH] = {0}, dPP[2 * NH] = {0};
  double dlam = __enzyme_autodiff((void *)loss_blas, enzyme_dup, W1, dW1, enzyme_dup, B1, dB1,
                                  enzyme_dup, W2M, dW2M, enzyme_dup, PP, dPP, LAM);
  char nm[48];
  for (int i = 0; i < NH * NI; i++) {
    snprintf(nm, sizeof nm, "d w1[%d]", i);
    fz_check(nm, dW1[i], fz_fd_ptr(eval_loops, 0, &W1[i]), 1e-6);
  }
  for (int i = 0; i < NH; i++) {
    snprintf(nm, sizeof nm, "d b1[%d]", i);
    fz_check(nm, dB1[i], fz_fd_ptr(eval_loops, 0, &B1[i]), 1e-6);
  }
  for (int i = 0; i < 2 * NH; i++) {
    snprintf(nm, sizeof nm, "d w2m[%d]%s", i, i % 2 ? " (momentum: 0)" : "");
    fz_check(nm, dW2M[i], i % 2 ? 0.0 : fz_fd_ptr(eval_loops, 0, &W2M[i]), 1e-6);
    snprintf(nm, sizeof nm, "d P[%d]", i);
    fz_check(nm, dPP[i], i < NH ? 0.0 : 2 * LAM * PP[i], 1e-12);
  }
  double pen = 0;
  for (int k = 0; k < NH; k++) pen += PP[NH + k] * PP[NH + k];
  fz_check("d lam", dlam, pen, 1e-12);
  // Forward along v, against the reverse gradient (identity, w = 1 for a scalar loss).
  double v1[NH * NI], vb[NH], v2[2 * NH], vp[2 * NH], vl = 0.7;
  fz_fill(v1, NH * NI, -1, 1);
  fz_fill(vb, NH, -1, 1);
  fz_fill(v2, 2 * NH, -1, 1);
  fz_fill(vp, 2 * NH, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss_blas, enzyme_dup, W1, v1, enzyme_dup, B1, vb,
                               enzyme_dup, W2M, v2, enzyme_dup, PP, vp, LAM, vl);
  double vjt = vl * dlam;
  for (int i = 0; i < NH * NI; i++) vjt += v1[i] * dW1[i];
  for (int i = 0; i < NH; i++) vjt += vb[i] * dB1[i];
  for (int i = 0; i < 2 * NH; i++) vjt += v2[i] * dW2M[i] + vp[i] * dPP[i];
  fz_check("<J v, 1> = <v, J^T 1>", jv, vjt, 1e-11);
  return fz_finish();
}
