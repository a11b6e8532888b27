// OPT: O0 O2 O3
// CFLAGS: -march=x86-64-v4
// REQUIRES: avx512f
// Minimal (from 64_sorting_network under -march=x86-64-v4): odd-even
// transposition sort, compare-and-swap at stride 2 from a run-time offset.
// AVX-512 vectorizes the inner loop with a vector-of-pointers GEP, a wide
// load + deinterleaving shuffles and two llvm.masked.scatter stores.
#include "fz_test.h"

#define N 20
double f(double *a, int n) {
  for (int r = 0; r < n; r++)
    for (int i = r & 1; i + 1 < n; i += 2)
      if (a[i] > a[i + 1]) { double t = a[i]; a[i] = a[i + 1]; a[i + 1] = t; }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}

int main(void) {
  double a[N], a0[N], da[N], want[N];
  fz_seed(41);
  fz_fill(a0, N, -1, 1);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += a0[j] < a0[i];
    want[i] = rank + 1;
  }
  fz_check_arr("da", da, want, N, 1e-12);
  return fz_finish();
}
