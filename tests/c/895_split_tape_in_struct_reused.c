// OPT: O0 O1 O2 O3
// Split mode as a training loop writes it (sweep20): each layer of a small network keeps
// its own tape in a struct next to its activations (`struct Frame { double out;
// unsigned char tape[256]; }`), the tapes are written by __enzyme_augmentfwd with
// `enzyme_allocated, sizeof frame.tape, enzyme_tape, frame.tape`, and the same frames are
// reused for every sample of a batch (forward all layers, reverse all layers LIFO, next
// sample); a second shape keeps the tape pointer itself in a struct field
// (`enzyme_tape, &st.tape`). The layer takes a struct of parameters by pointer.
// Oracles: the chain rule assembled by hand from the layer's analytic partials, and
// central finite differences of the whole batch loss.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated;
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_augmentfwd_v(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

#define W 3
#define L 4
#define B 5

typedef struct {
  double w[W];
  double b;
} Params;

/* One layer: y = tanh(b + sum_k w_k x^k) over a polynomial feature of its scalar input. */
double layer(const Params *p, double x) {
  double s = p->b, xk = 1.0;
  for (int k = 0; k < W; k++) {
    xk *= x;
    s += p->w[k] * xk;
  }
  return tanh(s);
}

typedef struct {
  double out;
  unsigned char tape[256];
} Frame;

static Params P[L];

/* Batch loss: sum over samples of (net(x) - t)^2 / 2. */
static double net(const Params *ps, double x) {
  for (int l = 0; l < L; l++) x = layer(&ps[l], x);
  return x;
}
static const double XS[B] = {0.3, -0.7, 0.9, 0.1, -0.2}, TS[B] = {0.2, -0.1, 0.4, 0.0, 0.3};
static double batch_loss(void *c) {
  (void)c;
  double s = 0;
  for (int i = 0; i < B; i++) {
    double e = net(P, XS[i]) - TS[i];
    s += 0.5 * e * e;
  }
  return s;
}

/* d layer / d input and d layer / d params, by hand. */
static double layer_dx(const Params *p, double x) {
  double s = p->b, d = 0, xk = 1.0;
  for (int k = 0; k < W; k++) {
    d += (k + 1) * p->w[k] * xk;
    xk *= x;
    s += p->w[k] * xk;
  }
  double t = tanh(s);
  return (1 - t * t) * d;
}

int main(void) {
  fz_seed(895);
  for (int l = 0; l < L; l++) {
    fz_fill(P[l].w, W, -0.8, 0.8);
    P[l].b = fz_uniform(-0.3, 0.3);
  }
  size_t need = __enzyme_augmentsize((void *)layer, enzyme_dup, enzyme_const);
  fz_check("the layer's tape fits the frame", need <= sizeof(((Frame *)0)->tape), 1, 0);

  Params G[L];
  memset(G, 0, sizeof G);
  Frame fr[L];
  double loss = 0;
  for (int i = 0; i < B; i++) {
    double x = XS[i];
    for (int l = 0; l < L; l++) {
      /* The layer's input is a constant here: its adjoint is chained by hand below. */
      fr[l].out = __enzyme_augmentfwd_d((void *)layer, enzyme_allocated, sizeof fr[l].tape,
                                        enzyme_tape, fr[l].tape, enzyme_dup, &P[l], &G[l],
                                        enzyme_const, x);
      fz_check("augmented primal = layer", fr[l].out, layer(&P[l], x), 1e-15);
      x = fr[l].out;
    }
    double e = x - TS[i];
    loss += 0.5 * e * e;
    double dy = e;
    for (int l = L - 1; l >= 0; l--) {
      double in = l ? fr[l - 1].out : XS[i];
      __enzyme_reverse((void *)layer, enzyme_allocated, sizeof fr[l].tape, enzyme_tape,
                       fr[l].tape, enzyme_dup, &P[l], &G[l], enzyme_const, in, dy);
      dy *= layer_dx(&P[l], in);
    }
  }
  fz_check("batch loss", loss, batch_loss(NULL), 1e-14);
  for (int l = 0; l < L; l++) {
    for (int k = 0; k < W; k++)
      fz_check("dloss/dw vs FD", G[l].w[k], fz_fd_ptr(batch_loss, NULL, &P[l].w[k]), 1e-6);
    fz_check("dloss/db vs FD", G[l].b, fz_fd_ptr(batch_loss, NULL, &P[l].b), 1e-6);
  }

  /* The tape pointer kept in a struct field; the tape is freed by the reverse call. */
  struct {
    void *tape;
    double y;
  } st = {NULL, 0};
  Params g1;
  memset(&g1, 0, sizeof g1);
  for (int rep = 0; rep < 3; rep++) {
    double x = 0.4 + 0.1 * rep;
    st.y = __enzyme_augmentfwd_d((void *)layer, enzyme_tape, &st.tape, enzyme_dup, &P[0], &g1,
                                 enzyme_const, x);
    fz_check("tape field written", st.tape != NULL, 1, 0);
    __enzyme_reverse((void *)layer, enzyme_tape, &st.tape, enzyme_dup, &P[0], &g1,
                     enzyme_const, x, 1.0);
  }
  /* Accumulated over the three inputs: d/db = sum (1 - y^2). */
  double want_b = 0;
  for (int rep = 0; rep < 3; rep++) {
    double y = layer(&P[0], 0.4 + 0.1 * rep);
    want_b += 1 - y * y;
  }
  fz_check("tape in a struct field: accumulated d/db", g1.b, want_b, 1e-13);
  return fz_finish();
}
