// OPT: O0 O2 O3
// CFLAGS: -ffast-math
// A float reduction: with -ffast-math, -O2/-O3 vectorize it into <N x float>
// partial sums and a final llvm.vector.reduce.fadd.
#include "fz_test.h"

float wdot(const float *x, const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * w[i];
  return s;
}

float sumexp(const float *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += expf(x[i]) + x[i];
  return s;
}

#define N 1024

int main(void) {
  fz_seed(29);
  static float x[N], w[N], dx[N], dw[N], want[N];
  fz_fillf(x, N, -1, 1);
  fz_fillf(w, N, 0, 1);
  memset(dx, 0, sizeof dx);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)wdot, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0f * x[i] * w[i];
  fz_check_arrf("dx", dx, want, N, 1e-4);
  for (int i = 0; i < N; i++) want[i] = x[i] * x[i];
  fz_check_arrf("dw", dw, want, N, 1e-4);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)sumexp, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = (float)(exp((double)x[i]) + 1.0);
  fz_check_arrf("sumexp dx", dx, want, N, 1e-4);
  return fz_finish();
}
