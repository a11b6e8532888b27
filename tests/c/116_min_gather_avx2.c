// OPT: O0 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// AVX2 variant of q16. Minimal: a vectorized gather y[i] = x[idx[i]] (llvm.masked.gather) -- the
// gradient must scatter-add dy[i] into dx[idx[i]].
#include "fz_test.h"

#define N 16
int idx[N];

void gather(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[idx[i]];
}

int main(void) {
  for (int i = 0; i < N; i++) idx[i] = (i * 5 + 3) % N;
  double x[N], y[N], dx[N], dy[N], want[N];
  for (int i = 0; i < N; i++) { x[i] = i; dx[i] = 0; dy[i] = 1.0 + i; }
  __enzyme_autodiff((void *)gather, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) want[idx[i]] = 1.0 + i;
  fz_check_arr("dx", dx, want, N, 1e-12);
  return fz_finish();
}
