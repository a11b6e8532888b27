// OPT: O0 O2
// enzyme_dupnoneed on an output buffer (its primal value need not be
// computed) and enzyme_const on a pointer argument (no derivative for it).
#include "fz_test.h"

void model(const double *p, const double *data, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double t = data[i];
    out[i] = p[0] * exp(-p[1] * t) + p[2] * t * t;
  }
}

#define N 25

int main(void) {
  fz_seed(46);
  double p[3] = {1.3, 0.7, -0.2}, dp[3], data[N], ddata[N], out[N], dout[N], w[N];
  p[0] += fz_uniform(0, 0.1);
  fz_fill(data, N, 0, 3);
  fz_fill(w, N, -1, 1);
  fz_zero(dp, 3);
  fz_zero(ddata, N);
  memcpy(dout, w, sizeof dout);
  __enzyme_autodiff((void *)model, enzyme_dup, p, dp, enzyme_const, data, enzyme_dupnoneed, out,
                    dout, enzyme_const, N);
  double want[3] = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    double t = data[i], e = exp(-p[1] * t);
    want[0] += w[i] * e;
    want[1] += w[i] * (-p[0] * t * e);
    want[2] += w[i] * t * t;
  }
  fz_check_arr("dp", dp, want, 3, 1e-10);
  /* the same with enzyme_dup: identical gradient, and ddata is never touched */
  fz_zero(dp, 3);
  memcpy(dout, w, sizeof dout);
  __enzyme_autodiff((void *)model, enzyme_dup, p, dp, enzyme_const, data, enzyme_dup, out, dout,
                    enzyme_const, N);
  fz_check_arr("dp (dup)", dp, want, 3, 1e-10);
  double zero[N];
  fz_zero(zero, N);
  fz_check_arr("ddata untouched", ddata, zero, N, 0.0);
  return fz_finish();
}
