// OPT: O0 O1 O2 O3
// Vector forward mode with `enzyme_dupv, stride, x, dxs` for a pointer
// argument, width 4: lane i's shadow is (char*)dxs + i*stride. Two
// layouts: contiguous (stride = n doubles) and padded (stride = n+3
// doubles, with sentinels in the padding that must stay untouched).
// Lanes vs scalar forward calls, the analytic gradient and FD.
#include "fz_test.h"
#include "fz_modes.h"

#define N 6
#define PAD 3

double lse(const double *x, int n) { /* log sum exp, stable */
  double m = x[0], s = 0.0;
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}

static double X[N];
static double e_lse(void *c) { (void)c; return lse(X, N); }

int main(void) {
  fz_seed(221);
  double g[N], dxs[4 * N], pad[4 * (N + PAD)];
  for (int t = 0; t < 3; t++) {
    fz_fill(X, N, -2, 2);
    double m = lse(X, N);
    for (int i = 0; i < N; i++) g[i] = exp(X[i] - m); /* softmax */
    fz_fill(dxs, 4 * N, -1, 1);
    fz_v4 r = __enzyme_fwddiff_v4((void *)lse, enzyme_width, 4, enzyme_dupv, (int)(N * sizeof(double)),
                                  X, dxs, enzyme_const, N);
    for (int l = 0; l < 4; l++) {
      double sc = __enzyme_fwddiff((void *)lse, enzyme_dup, X, dxs + l * N, enzyme_const, N);
      fz_mcheck2("dupv contiguous lane", r.d[l], fz_dot(g, dxs + l * N, N), 1e-12,
                 fz_fd_dir(e_lse, NULL, X, dxs + l * N, N), 1e-6);
      fz_mcheck("dupv contiguous lane vs scalar mode", r.d[l], sc, 1e-14);
    }
    /* padded lanes */
    for (int i = 0; i < 4 * (N + PAD); i++) pad[i] = -777.0;
    for (int l = 0; l < 4; l++) memcpy(pad + l * (N + PAD), dxs + l * N, sizeof(double) * N);
    fz_v4 p = __enzyme_fwddiff_v4((void *)lse, enzyme_width, 4, enzyme_dupv,
                                  (int)((N + PAD) * sizeof(double)), X, pad, enzyme_const, N);
    for (int l = 0; l < 4; l++) {
      fz_mcheck("dupv padded lane", p.d[l], fz_dot(g, dxs + l * N, N), 1e-12);
      for (int k = 0; k < PAD; k++) fz_mcheck("padding untouched", pad[l * (N + PAD) + N + k], -777.0, 0.0);
    }
    /* reverse gradient is the softmax */
    double gr[N];
    fz_zero(gr, N);
    __enzyme_autodiff((void *)lse, enzyme_dup, X, gr, enzyme_const, N);
    fz_check_arr("rev gradient = softmax", gr, g, N, 1e-12);
  }
  return fz_finish();
}
