// OPT: O0 O1 O2 O3
// "ML": a 2-layer MLP (tanh hidden layer) with all weights in one array;
// mean squared error over a small batch, differentiated w.r.t. the weights
// (inputs/targets constant). Prints TIMING.
#include "fz_test.h"

#define DIN 4
#define DH 16
#define BATCH 32
#define NPARAM (DH * DIN + DH + DH + 1)

double mlp_loss(const double *w, const double *X, const double *T, int batch) {
  const double *W1 = w, *b1 = w + DH * DIN, *W2 = b1 + DH, *b2 = W2 + DH;
  double loss = 0.0;
  for (int s = 0; s < batch; s++) {
    const double *x = X + s * DIN;
    double y = b2[0];
    for (int h = 0; h < DH; h++) {
      double a = b1[h];
      for (int i = 0; i < DIN; i++) a += W1[h * DIN + i] * x[i];
      y += W2[h] * tanh(a);
    }
    double r = y - T[s];
    loss += r * r;
  }
  return loss / (double)batch;
}

struct ctx { double *w, *dw, *X, *T; };
static double eval(void *c) { struct ctx *q = c; return mlp_loss(q->w, q->X, q->T, BATCH); }
static void run_primal(void *c) { fz_sink = eval(c); }
static void run_grad(void *c) {
  struct ctx *q = c;
  fz_zero(q->dw, NPARAM);
  __enzyme_autodiff((void *)mlp_loss, enzyme_dup, q->w, q->dw, enzyme_const, q->X, enzyme_const,
                    q->T, enzyme_const, BATCH);
}

int main(void) {
  fz_seed(48);
  static double w[NPARAM], dw[NPARAM], fd[NPARAM], X[BATCH * DIN], T[BATCH];
  fz_fill(w, NPARAM, -0.5, 0.5);
  fz_fill(X, BATCH * DIN, -1, 1);
  fz_fill(T, BATCH, -1, 1);
  struct ctx c = {w, dw, X, T};
  run_grad(&c);
  fz_fd_grad(eval, &c, w, NPARAM, fd);
  fz_check_arr("dloss/dw fd", dw, fd, NPARAM, 1e-6);
  /* analytic check of the output bias: dL/db2 = 2/B sum r_s */
  double db2 = 0;
  for (int s = 0; s < BATCH; s++) {
    double y = w[NPARAM - 1];
    for (int h = 0; h < DH; h++) {
      double a = w[DH * DIN + h];
      for (int i = 0; i < DIN; i++) a += w[h * DIN + i] * X[s * DIN + i];
      y += w[DH * DIN + DH + h] * tanh(a);
    }
    db2 += 2.0 * (y - T[s]) / BATCH;
  }
  fz_check("dloss/db2 analytic", dw[NPARAM - 1], db2, 1e-10);
  double tp = fz_time_ns(run_primal, &c);
  double tg = fz_time_ns(run_grad, &c);
  fz_timing(tp, tg);
  return fz_finish();
}
