// OPT: O0 O1 O2 O3
// A streaming FIR filter with a delay line, as DSP code writes it (sweep23): the state
// window is shifted by `memmove` (overlapping, one sample per step) between two
// `restrict` pointers into the same caller buffers' copies, new samples are written at
// the front, taps are applied with `restrict` coefficient and history pointers, and the
// output energy is the loss. Both the taps and the input signal are active. Oracles: the
// analytic gradient (the filter is linear in each: dL/dh_k = sum_t 2 y_t x_{t-k},
// dL/dx_s = sum_t 2 y_t h_{t-s}), finite differences of every input.
#include <string.h>
#include "fz_test.h"

#define K 5
#define T 24

static void fir_step(double *restrict line, const double *restrict h, double sample,
                     double *restrict out) {
  memmove(line + 1, line, (K - 1) * sizeof *line); // oldest sample falls off the end
  line[0] = sample;
  double acc = 0;
  for (int k = 0; k < K; k++) acc += h[k] * line[k];
  *out = acc;
}

double energy(const double *restrict h, const double *restrict x, int n) {
  double line[K];
  memset(line, 0, sizeof line);
  double e = 0;
  for (int t = 0; t < n; t++) {
    double y;
    fir_step(line, h, x[t], &y);
    e += y * y;
  }
  return e;
}

static double H[K], X[T];
static double ev(void *c) { (void)c; return energy(H, X, T); }

int main(void) {
  fz_seed(930);
  fz_fill(H, K, -0.8, 0.9);
  for (int t = 0; t < T; t++) X[t] = sin(0.37 * t) + 0.2 * fz_uniform(-1, 1);
  double dh[K] = {0}, dx[T] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, H, dh, enzyme_dup, X, dx, enzyme_const, T);
  double y[T], wh[K] = {0}, wx[T] = {0};
  for (int t = 0; t < T; t++) {
    y[t] = 0;
    for (int k = 0; k < K && k <= t; k++) y[t] += H[k] * X[t - k];
  }
  for (int t = 0; t < T; t++)
    for (int k = 0; k < K && k <= t; k++) {
      wh[k] += 2 * y[t] * X[t - k];
      wx[t - k] += 2 * y[t] * H[k];
    }
  fz_check_arr("dL/dh analytic", dh, wh, K, 1e-10);
  fz_check_arr("dL/dx analytic", dx, wx, T, 1e-10);
  double fh[K], fx[T];
  fz_fd_grad(ev, NULL, H, K, fh);
  fz_fd_grad(ev, NULL, X, T, fx);
  fz_check_arr("dL/dh FD", dh, fh, K, 1e-6);
  fz_check_arr("dL/dx FD", dx, fx, T, 1e-6);
  return fz_finish();
}
