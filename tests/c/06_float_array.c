// OPT: O0 O1 O2 O3
// f32 arrays: weighted sum of squares in float, shadows in float.
#include "fz_test.h"

float wsumsq(const float *x, const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return s;
}

#define N 64

int main(void) {
  fz_seed(6);
  float x[N], w[N], dx[N], dw[N], want[N];
  fz_fillf(x, N, -1.0, 1.0);
  fz_fillf(w, N, 0.0, 2.0);
  memset(dx, 0, sizeof dx);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)wsumsq, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0f * w[i] * x[i];
  fz_check_arrf("dx", dx, want, N, 1e-5);
  for (int i = 0; i < N; i++) want[i] = x[i] * x[i];
  fz_check_arrf("dw", dw, want, N, 1e-5);
  /* const weights: only dx */
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)wsumsq, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2.0f * w[i] * x[i];
  fz_check_arrf("dx (w const)", dx, want, N, 1e-5);
  return fz_finish();
}
