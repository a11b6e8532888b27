// OPT: O0 O2
// memcpy / memset of float data inside the differentiated function.
#include "fz_test.h"

#define N 12

float f(const float *x, int n) {
  float buf[2 * N];
  memset(buf, 0, sizeof buf);
  memcpy(buf + 3, x, sizeof(float) * (size_t)n);
  float s = 0.0f;
  for (int i = 1; i < 2 * N; i++) s += buf[i] * buf[i - 1] + buf[i];
  return s;
}

int main(void) {
  fz_seed(26);
  float x[N], dx[N], want[N];
  fz_fillf(x, N, -1, 1);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* s = sum_i x_i + sum_{i>=1} x_i x_{i-1}; d/dx_k = 1 + x_{k-1} + x_{k+1} */
  for (int k = 0; k < N; k++)
    want[k] = 1.0f + (k > 0 ? x[k - 1] : 0.0f) + (k < N - 1 ? x[k + 1] : 0.0f);
  fz_check_arrf("dx", dx, want, N, 1e-5);
  return fz_finish();
}
