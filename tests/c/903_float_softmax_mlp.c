// OPT: O0 O1 O2 O3
// A single-precision classifier as users write it for speed (sweep22): a 2-layer MLP in
// `float` (`tanhf` hidden layer), a numerically stable softmax (`expf` after subtracting
// the max found with `fmaxf`), cross-entropy with `logf`, an L2 penalty, all accumulated
// in float. Oracles: hand-written backpropagation of the same network in double
// (float-appropriate tolerance 2e-4 relative), float finite differences for a few
// weights, and forward vs reverse (dot-product identity, in float).
#include "fz_test.h"

extern float __enzyme_fwddiff_f(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

#define NI 4
#define NH 6
#define NO 3
#define NB 5
#define NW (NH * NI + NH + NO * NH + NO)

static const float XIN[NB][NI] = {{0.2f, -0.4f, 0.9f, 0.1f},
                                  {-1.1f, 0.3f, 0.05f, 0.7f},
                                  {0.6f, 0.6f, -0.3f, -0.8f},
                                  {0.0f, -0.2f, 0.4f, 1.2f},
                                  {0.9f, -0.9f, 0.2f, 0.3f}};
static const int LABEL[NB] = {0, 2, 1, 2, 0};

float loss(const float *w, float lambda) {
  const float *W1 = w, *b1 = w + NH * NI, *W2 = b1 + NH, *b2 = W2 + NO * NH;
  float total = 0.0f;
  for (int s = 0; s < NB; s++) {
    float h[NH], z[NO];
    for (int j = 0; j < NH; j++) {
      float a = b1[j];
      for (int i = 0; i < NI; i++) a += W1[j * NI + i] * XIN[s][i];
      h[j] = tanhf(a);
    }
    float m = -INFINITY;
    for (int k = 0; k < NO; k++) {
      float a = b2[k];
      for (int j = 0; j < NH; j++) a += W2[k * NH + j] * h[j];
      z[k] = a;
      m = fmaxf(m, a);
    }
    float se = 0.0f;
    for (int k = 0; k < NO; k++) se += expf(z[k] - m);
    total += logf(se) + m - z[LABEL[s]];
  }
  float reg = 0.0f;
  for (int i = 0; i < NW; i++) reg += w[i] * w[i];
  return total / NB + lambda * reg;
}

// Backpropagation by hand, in double.
static void backprop(const float *wf, double lambda, double *g, double *glam) {
  double w[NW];
  for (int i = 0; i < NW; i++) w[i] = wf[i], g[i] = 0;
  const double *W1 = w, *b1 = w + NH * NI, *W2 = b1 + NH, *b2 = W2 + NO * NH;
  double *gW1 = g, *gb1 = g + NH * NI, *gW2 = gb1 + NH, *gb2 = gW2 + NO * NH;
  for (int s = 0; s < NB; s++) {
    double h[NH], z[NO], p[NO], m = -INFINITY, se = 0;
    for (int j = 0; j < NH; j++) {
      double a = b1[j];
      for (int i = 0; i < NI; i++) a += W1[j * NI + i] * XIN[s][i];
      h[j] = tanh(a);
    }
    for (int k = 0; k < NO; k++) {
      double a = b2[k];
      for (int j = 0; j < NH; j++) a += W2[k * NH + j] * h[j];
      z[k] = a;
      if (a > m) m = a;
    }
    for (int k = 0; k < NO; k++) se += exp(z[k] - m);
    for (int k = 0; k < NO; k++) p[k] = exp(z[k] - m) / se;
    double dh[NH] = {0};
    for (int k = 0; k < NO; k++) {
      double dz = (p[k] - (k == LABEL[s])) / NB;
      gb2[k] += dz;
      for (int j = 0; j < NH; j++) gW2[k * NH + j] += dz * h[j], dh[j] += dz * W2[k * NH + j];
    }
    for (int j = 0; j < NH; j++) {
      double da = dh[j] * (1 - h[j] * h[j]);
      gb1[j] += da;
      for (int i = 0; i < NI; i++) gW1[j * NI + i] += da * XIN[s][i];
    }
  }
  double reg = 0;
  for (int i = 0; i < NW; i++) g[i] += 2 * lambda * w[i], reg += w[i] * w[i];
  *glam = reg;
}

static float Wt[NW];
static float LAM = 0.01f;
static float ev(void *c) { (void)c; return loss(Wt, LAM); }

int main(void) {
  for (int i = 0; i < NW; i++) Wt[i] = (float)(0.5 * sin(1.3 * i + 0.2));
  float dw[NW] = {0};
  float dlam = __enzyme_autodiff_f((void *)loss, enzyme_dup, Wt, dw, LAM);
  double g[NW], glam;
  backprop(Wt, LAM, g, &glam);
  for (int i = 0; i < NW; i++) {
    char buf[64];
    snprintf(buf, sizeof buf, "dL/dw[%d] vs backprop", i);
    fz_check(buf, dw[i], g[i], 2e-4);
  }
  fz_check("dL/dlambda vs backprop", dlam, glam, 2e-4);
  for (int i = 0; i < NW; i += 7) {
    char buf[64];
    snprintf(buf, sizeof buf, "dL/dw[%d] vs float FD", i);
    fz_check(buf, dw[i], fz_fd_ptrf(ev, NULL, &Wt[i]), 2e-3);
  }
  float t[NW];
  double dot = 0;
  for (int i = 0; i < NW; i++) t[i] = (float)(0.1 * cos(0.7 * i)), dot += (double)t[i] * dw[i];
  float jt = __enzyme_fwddiff_f((void *)loss, enzyme_dup, Wt, t, LAM, 0.0f);
  fz_check("forward . t vs reverse (float)", jt, dot, 1e-4);
  return fz_finish();
}
