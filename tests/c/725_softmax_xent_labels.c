// OPT: O0 O1 O2 O3
// A classifier's loss the way users write it for Enzyme: logits = W x + b for a
// mini-batch, log-sum-exp with the max subtracted (a data-dependent argmax branch),
// integer labels passed `enzyme_const`, the probabilities written to a caller buffer
// passed `enzyme_dupnoneed` (only the loss is wanted), an L2 penalty with the weight
// decay passed as an active scalar (`enzyme_out`) after the pointers. Oracles: the
// analytic gradient (softmax minus one-hot, summed over the batch) and finite differences.
#include "fz_test.h"

#define NC 4
#define NF 3
#define NB 5

double xent(const double *W, const double *b, const double *X, const int *labels, int nb,
            double *probs, double decay) {
  double loss = 0.0;
  for (int s = 0; s < nb; s++) {
    double z[NC];
    int arg = 0;
    for (int c = 0; c < NC; c++) {
      double a = b[c];
      for (int f = 0; f < NF; f++) a += W[c * NF + f] * X[s * NF + f];
      z[c] = a;
      if (z[c] > z[arg]) arg = c;
    }
    double m = z[arg], se = 0.0;
    for (int c = 0; c < NC; c++) se += exp(z[c] - m);
    double lse = m + log(se);
    for (int c = 0; c < NC; c++) probs[s * NC + c] = exp(z[c] - lse);
    loss += lse - z[labels[s]];
  }
  double reg = 0.0;
  for (int i = 0; i < NC * NF; i++) reg += W[i] * W[i];
  return loss / nb + 0.5 * decay * reg;
}

static double W0[NC * NF], B0[NC], X0[NB * NF], D0 = 0.03;
static int L0[NB] = {0, 3, 1, 2, 3};
static double eval(void *ctx) {
  (void)ctx;
  double p[NB * NC];
  return xent(W0, B0, X0, L0, NB, p, D0);
}

int main(void) {
  fz_seed(725);
  fz_fill(W0, NC * NF, -1, 1);
  fz_fill(B0, NC, -0.5, 0.5);
  fz_fill(X0, NB * NF, -2, 2);
  double dW[NC * NF] = {0}, db[NC] = {0}, probs[NB * NC], dprobs[NB * NC];
  fz_zero(dprobs, NB * NC);
  double ddecay = __enzyme_autodiff((void *)xent, enzyme_dup, W0, dW, enzyme_dup, B0, db,
                                    enzyme_const, X0, enzyme_const, L0, NB, enzyme_dupnoneed,
                                    probs, dprobs, enzyme_out, D0);
  /* analytic: dL/dz[s][c] = (p - onehot)/nb */
  double wantW[NC * NF], wantb[NC], wantd = 0;
  for (int i = 0; i < NC * NF; i++) { wantW[i] = D0 * W0[i]; wantd += 0.5 * W0[i] * W0[i]; }
  for (int c = 0; c < NC; c++) wantb[c] = 0;
  for (int s = 0; s < NB; s++) {
    double z[NC], m = -1e300, se = 0;
    for (int c = 0; c < NC; c++) {
      z[c] = B0[c];
      for (int f = 0; f < NF; f++) z[c] += W0[c * NF + f] * X0[s * NF + f];
      if (z[c] > m) m = z[c];
    }
    for (int c = 0; c < NC; c++) se += exp(z[c] - m);
    for (int c = 0; c < NC; c++) {
      double g = (exp(z[c] - m) / se - (c == L0[s])) / NB;
      wantb[c] += g;
      for (int f = 0; f < NF; f++) wantW[c * NF + f] += g * X0[s * NF + f];
    }
  }
  fz_check_arr("dW analytic", dW, wantW, NC * NF, 1e-10);
  fz_check_arr("db analytic", db, wantb, NC, 1e-10);
  fz_check("ddecay analytic", ddecay, wantd, 1e-10);
  double fdW[NC * NF], fdb[NC];
  fz_fd_grad(eval, NULL, W0, NC * NF, fdW);
  fz_fd_grad(eval, NULL, B0, NC, fdb);
  fz_check_arr("dW fd", dW, fdW, NC * NF, 1e-6);
  fz_check_arr("db fd", db, fdb, NC, 1e-6);
  fz_check("ddecay fd", ddecay, fz_fd_ptr(eval, NULL, &D0), 1e-6);
  /* the probabilities were written (primal side effect kept with dupnoneed) */
  double p[NB * NC];
  xent(W0, B0, X0, L0, NB, p, D0);
  fz_check_arr("probs written", probs, p, NB * NC, 1e-12);
  return fz_finish();
}
