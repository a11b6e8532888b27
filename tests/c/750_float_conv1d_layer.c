// OPT: O0 O1 O2 O3
// Single precision throughout, as ML kernels are written: a 1-D convolution with
// `float` weights and inputs, a leaky ReLU (`fmaxf`), average pooling, a float loss
// returned from `__enzyme_autodiff` declared as returning float, `float` scalars passed
// `enzyme_out` (the derivative of the leak slope comes back as a float). Oracle:
// five-point finite differences of the float primal (float tolerance) and a double
// re-implementation's analytic gradient for the bias.
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, ...);

#define NX 16
#define KW 3
#define NC 2

float conv_loss(const float *x, const float *w, const float *bias, float slope, int nx) {
  float acc = 0.0f;
  for (int c = 0; c < NC; c++) {
    float pooled = 0.0f;
    for (int i = 0; i + KW <= nx; i++) {
      float s = bias[c];
      for (int k = 0; k < KW; k++) s += w[c * KW + k] * x[i + k];
      float a = fmaxf(s, 0.0f) + slope * fminf(s, 0.0f);
      pooled += a;
    }
    pooled /= (float)(nx - KW + 1);
    acc += pooled * pooled;
  }
  return acc;
}

static float X[NX], W[NC * KW], Bias[NC], Slope = 0.1f;
static float evalf(void *ctx) { (void)ctx; return conv_loss(X, W, Bias, Slope, NX); }

int main(void) {
  fz_seed(750);
  fz_fillf(X, NX, -1, 1);
  fz_fillf(W, NC * KW, -1, 1);
  Bias[0] = 0.05f, Bias[1] = -0.1f;
  float dX[NX] = {0}, dW[NC * KW] = {0}, dB[NC] = {0};
  float dslope = __enzyme_autodiff_f((void *)conv_loss, enzyme_dup, X, dX, enzyme_dup, W, dW,
                                     enzyme_dup, Bias, dB, enzyme_out, Slope, enzyme_const, NX);
  float fd[NX];
  for (int i = 0; i < NX; i++) fd[i] = (float)fz_fd_ptrf(evalf, NULL, &X[i]);
  fz_check_arrf("dL/dx", dX, fd, NX, 2e-3);
  for (int i = 0; i < NC * KW; i++) fd[i] = (float)fz_fd_ptrf(evalf, NULL, &W[i]);
  fz_check_arrf("dL/dw", dW, fd, NC * KW, 2e-3);
  fz_check("dL/dslope", dslope, fz_fd_ptrf(evalf, NULL, &Slope), 2e-3);
  /* bias: 2 pooled_c * mean over windows of (s > 0 ? 1 : slope), in double */
  for (int c = 0; c < NC; c++) {
    double pooled = 0, dp = 0;
    int nw = NX - KW + 1;
    for (int i = 0; i < nw; i++) {
      double s = Bias[c];
      for (int k = 0; k < KW; k++) s += (double)W[c * KW + k] * X[i + k];
      pooled += s > 0 ? s : Slope * s;
      dp += s > 0 ? 1.0 : Slope;
    }
    pooled /= nw, dp /= nw;
    fz_check(c ? "dL/dbias1 (analytic)" : "dL/dbias0 (analytic)", dB[c], 2 * pooled * dp, 1e-4);
  }
  return fz_finish();
}
