// OPT: O0 O1 O2 O3
// A struct holding pointers to active arrays, passed by pointer with a shadow
// struct whose pointer fields point at the shadow arrays (Enzyme's usual
// "dup of a struct of pointers"), plus a nested struct array-of-pointers.
#include "fz_test.h"

typedef struct {
  int n;
  double *w;     /* weights, active */
  double *b;     /* biases, active */
  double scale;  /* active scalar field */
} Layer;

typedef struct {
  Layer *layers;
  int nl;
} Net;

double net_f(const Net *net, const double *x) {
  double h[8], t[8];
  int n = net->layers[0].n;
  for (int i = 0; i < n; i++) h[i] = x[i];
  for (int l = 0; l < net->nl; l++) {
    const Layer *L = &net->layers[l];
    for (int i = 0; i < n; i++) {
      double s = L->b[i];
      for (int j = 0; j < n; j++) s += L->w[i * n + j] * h[j];
      t[i] = tanh(s) * L->scale;
    }
    for (int i = 0; i < n; i++) h[i] = t[i];
  }
  double r = 0.0;
  for (int i = 0; i < n; i++) r += h[i] * h[i];
  return r;
}

#define NN 4
#define NL 3
struct ctx { Net *net; double *x; };
static double eval(void *p) { struct ctx *c = p; return net_f(c->net, c->x); }

int main(void) {
  fz_seed(127);
  double W[NL][NN * NN], B[NL][NN], dW[NL][NN * NN], dB[NL][NN], x[NN];
  Layer L[NL], dL[NL];
  fz_fill(&W[0][0], NL * NN * NN, -1, 1);
  fz_fill(&B[0][0], NL * NN, -0.5, 0.5);
  fz_fill(x, NN, -1, 1);
  fz_zero(&dW[0][0], NL * NN * NN);
  fz_zero(&dB[0][0], NL * NN);
  for (int l = 0; l < NL; l++) {
    L[l] = (Layer){NN, W[l], B[l], 1.0 + 0.1 * l};
    dL[l] = (Layer){NN, dW[l], dB[l], 0.0};
  }
  Net net = {L, NL}, dnet = {dL, NL};
  __enzyme_autodiff((void *)net_f, enzyme_dup, &net, &dnet, enzyme_const, x);
  struct ctx c = {&net, x};
  double fdW[NL * NN * NN], fdB[NL * NN];
  fz_fd_grad(eval, &c, &W[0][0], NL * NN * NN, fdW);
  fz_fd_grad(eval, &c, &B[0][0], NL * NN, fdB);
  fz_check_arr("dW", &dW[0][0], fdW, NL * NN * NN, 1e-6);
  fz_check_arr("dB", &dB[0][0], fdB, NL * NN, 1e-6);
  for (int l = 0; l < NL; l++) {
    char w[32];
    snprintf(w, sizeof w, "dscale[%d]", l);
    fz_check(w, dL[l].scale, fz_fd_ptr(eval, &c, &L[l].scale), 1e-6);
  }
  return fz_finish();
}
