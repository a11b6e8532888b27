// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v3 -funroll-loops
// REQUIRES: avx2 fma
// Fast-math float loops that become rsqrt/rcp approximations + Newton steps,
// divisions turned into reciprocal multiplies, reassociated reductions,
// unrolled loops.
#include "fz_test.h"

#define N 67
float invnorm(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] / sqrtf(x[i] * x[i] + 1.0f);
  return s;
}
void normalize(const float *restrict x, float *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] / (1.0f + x[i] * x[i]);
}
double divsum(const double *x, double c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] / c + c / x[i];
  return s;
}
float rms(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return 1.0f / sqrtf(s / n);
}

int main(void) {
  fz_seed(218);
  float x[N], dx[N], w[N], y[N], dy[N];
  fz_fillf(x, N, 0.5, 2.0);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)invnorm, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) { double v = x[i]; w[i] = (float)(1.0 / pow(v * v + 1, 1.5)); }
  fz_check_arrf("invnorm", dx, w, N, 2e-3);

  memset(dx, 0, sizeof dx);
  for (int i = 0; i < N; i++) dy[i] = 1.0f + 0.1f * (i % 7);
  __enzyme_autodiff((void *)normalize, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) { double v = x[i]; w[i] = (float)((1.0 + 0.1 * (i % 7)) * (1 - v * v) / ((1 + v * v) * (1 + v * v))); }
  fz_check_arrf("normalize", dx, w, N, 2e-3);

  double xd[N], dxd[N], wd[N];
  fz_fill(xd, N, 0.5, 2.0);
  fz_zero(dxd, N);
  double c = 1.7;
  double dc = __enzyme_autodiff((void *)divsum, enzyme_dup, xd, dxd, enzyme_out, c, enzyme_const, N);
  double wc = 0;
  for (int i = 0; i < N; i++) { wd[i] = 1 / c - c / (xd[i] * xd[i]); wc += -xd[i] / (c * c) + 1 / xd[i]; }
  fz_check_arr("divsum dx", dxd, wd, N, 1e-10);
  fz_check("divsum dc", dc, wc, 1e-10);

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)rms, enzyme_dup, x, dx, enzyme_const, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (double)x[i] * x[i];
  for (int i = 0; i < N; i++) w[i] = (float)(-pow(s / N, -1.5) * x[i] / N);
  fz_check_arrf("rms", dx, w, N, 2e-3);
  return fz_finish();
}
