// OPT: O0 O1 O2 O3
// Enzyme's shadow semantics as users rely on them when they loop over data points:
// reverse mode *adds* into the shadows of inputs (a gradient accumulated over several
// `__enzyme_autodiff` calls, a shadow that starts non-zero), the shadow of an output
// buffer is the seed and is consumed (zeroed) by the reverse pass, an output written
// twice (`out[0]` overwritten) takes only the final value's seed, a buffer that is both
// read and overwritten in place (`x[i] = f(x[i])`) gets the adjoint of its old value.
// Oracles: analytic values.
#include "fz_test.h"

extern void __enzyme_autodiff_v(void *, ...);

double loss_point(const double *w, double x, double y) {
  double r = w[0] + w[1] * x + w[2] * x * x - y;
  return r * r;
}

void squares(const double *x, double *out, int n) {
  out[0] = 100.0 * x[0]; /* overwritten below: its seed must not count */
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
}

void inplace(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = sin(x[i]) * x[i];
}

int main(void) {
  double w[3] = {0.5, -1.0, 0.25};
  double xs[4] = {-1.0, 0.5, 2.0, 3.0}, ys[4] = {1.0, 0.0, 2.0, -1.0};
  double dw[3] = {1.0, 2.0, 3.0}; /* starts non-zero: the calls add to it */
  double want[3] = {1.0, 2.0, 3.0};
  for (int k = 0; k < 4; k++) {
    double dx = __enzyme_autodiff((void *)loss_point, enzyme_dup, w, dw, xs[k], enzyme_const,
                                  ys[k]);
    double r = w[0] + w[1] * xs[k] + w[2] * xs[k] * xs[k] - ys[k];
    want[0] += 2 * r;
    want[1] += 2 * r * xs[k];
    want[2] += 2 * r * xs[k] * xs[k];
    fz_check("dloss/dx", dx, 2 * r * (w[1] + 2 * w[2] * xs[k]), 1e-12);
  }
  fz_check_arr("dw accumulated", dw, want, 3, 1e-12);

  double x[3] = {1.5, -2.0, 0.5}, out[3], dx[3] = {0.1, 0.2, 0.3}, dout[3] = {1.0, 2.0, 3.0};
  __enzyme_autodiff_v((void *)squares, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, 3);
  double wantx[3], zero[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) wantx[i] = 0.1 * (i + 1) + 2 * x[i] * (i + 1);
  fz_check_arr("squares dx", dx, wantx, 3, 1e-12);
  fz_check_arr("squares dout consumed", dout, zero, 3, 0);
  for (int i = 0; i < 3; i++) fz_check("squares out", out[i], x[i] * x[i], 0);

  double y[3] = {0.3, 1.2, -0.7}, y0[3], dy[3] = {1.0, -2.0, 0.5}, dy0[3];
  memcpy(y0, y, sizeof y);
  memcpy(dy0, dy, sizeof dy);
  __enzyme_autodiff_v((void *)inplace, enzyme_dup, y, dy, 3);
  for (int i = 0; i < 3; i++) {
    fz_check("inplace value", y[i], sin(y0[i]) * y0[i], 1e-15);
    fz_check("inplace adjoint", dy[i], dy0[i] * (cos(y0[i]) * y0[i] + sin(y0[i])), 1e-12);
  }
  return fz_finish();
}
