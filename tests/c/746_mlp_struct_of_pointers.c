// OPT: O0 O1 O2 O3
// A two-layer perceptron the way Enzyme users pass models: a `struct net` holding its
// sizes and four weight pointers, differentiated with `enzyme_dup` on the struct and a
// shadow struct whose pointers point at the gradient buffers (Enzyme's documented
// pattern), a `const` batch of inputs and integer labels, tanh hidden units and a
// log-sum-exp cross entropy averaged over the batch. Oracle: central finite differences
// of every weight and bias.
#include "fz_test.h"

typedef struct {
  int nin, nh, nout;
  double *W1, *b1, *W2, *b2;
} net;

#define NIN 4
#define NH 5
#define NOUT 3
#define NB 6

double batch_loss(const net *m, const double *X, const int *y, int nb) {
  double total = 0.0;
  for (int s = 0; s < nb; s++) {
    const double *x = X + s * m->nin;
    double h[16], z[8];
    for (int j = 0; j < m->nh; j++) {
      double a = m->b1[j];
      for (int i = 0; i < m->nin; i++) a += m->W1[j * m->nin + i] * x[i];
      h[j] = tanh(a);
    }
    double zmax = -1e300;
    for (int k = 0; k < m->nout; k++) {
      double a = m->b2[k];
      for (int j = 0; j < m->nh; j++) a += m->W2[k * m->nh + j] * h[j];
      z[k] = a;
      if (a > zmax) zmax = a;
    }
    double se = 0.0;
    for (int k = 0; k < m->nout; k++) se += exp(z[k] - zmax);
    total += zmax + log(se) - z[y[s]];
  }
  return total / nb;
}

static double W1[NH * NIN], b1[NH], W2[NOUT * NH], b2[NOUT], X[NB * NIN];
static int Y[NB];
static net M = {NIN, NH, NOUT, W1, b1, W2, b2};
static double eval(void *ctx) { (void)ctx; return batch_loss(&M, X, Y, NB); }

int main(void) {
  fz_seed(746);
  fz_fill(W1, NH * NIN, -0.8, 0.8);
  fz_fill(b1, NH, -0.2, 0.2);
  fz_fill(W2, NOUT * NH, -0.8, 0.8);
  fz_fill(b2, NOUT, -0.2, 0.2);
  fz_fill(X, NB * NIN, -1, 1);
  for (int s = 0; s < NB; s++) Y[s] = s % NOUT;
  double dW1[NH * NIN] = {0}, db1[NH] = {0}, dW2[NOUT * NH] = {0}, db2[NOUT] = {0};
  net dM = {NIN, NH, NOUT, dW1, db1, dW2, db2};
  __enzyme_autodiff((void *)batch_loss, enzyme_dup, &M, &dM, enzyme_const, X, enzyme_const, Y,
                    enzyme_const, NB);
  double fd[NH * NIN];
  fz_fd_grad(eval, NULL, W1, NH * NIN, fd);
  fz_check_arr("dW1", dW1, fd, NH * NIN, 1e-6);
  fz_fd_grad(eval, NULL, b1, NH, fd);
  fz_check_arr("db1", db1, fd, NH, 1e-6);
  fz_fd_grad(eval, NULL, W2, NOUT * NH, fd);
  fz_check_arr("dW2", dW2, fd, NOUT * NH, 1e-6);
  fz_fd_grad(eval, NULL, b2, NOUT, fd);
  fz_check_arr("db2", db2, fd, NOUT, 1e-6);
  /* the output-bias gradient of a softmax cross entropy sums to zero */
  fz_check("sum db2", db2[0] + db2[1] + db2[2], 0.0, 1e-12);
  return fz_finish();
}
