// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// AVX2 variant of q08: conditional loads/stores in loops (llvm.masked.load/store),
// gathers through an index array, scatter, and strided access.
#include "fz_test.h"

#define N 77
int idx[N];
int cond[N];

#ifndef NO_MASKED_STORE
/* masked store: y[i] = x[i]^2 only where cond */
double f_masked(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    if (cond[i]) y[i] = x[i] * x[i] + y[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * (1.0 + 0.01 * i);
  return s;
}
#endif

/* masked load: reads x[i] only where cond */
double f_maskload(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = cond[i] ? x[i] * x[i] * x[i] : 0.5;
    s += v;
  }
  return s;
}

/* gather */
double f_gather(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[idx[i]] * x[idx[i]] * (i + 1);
  return s;
}

/* scatter (idx is a permutation; compiler cannot know it) */
void f_scatter(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[idx[i]] = sin(x[i]) * 2.0;
}

/* float gather + masked */
float f_gatherf(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    if (cond[i]) s += x[idx[i]] * x[i];
  return s;
}

int main(void) {
  fz_seed(208);
  for (int i = 0; i < N; i++) { idx[i] = (i * 31 + 7) % N; cond[i] = (fz_rand_u64() >> 7) & 1; }
  double x[N], y[N], dx[N], dy[N], want[N], dyw[N];
  float xf[N], dxf[N], wantf[N];
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  double y0[N];
  memcpy(y0, y, sizeof y);
#ifndef NO_MASKED_STORE
  fz_zero(dx, N); fz_zero(dy, N);
  __enzyme_autodiff((void *)f_masked, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    want[i] = cond[i] ? 2 * x[i] * (1.0 + 0.01 * i) : 0;
    dyw[i] = 1.0 + 0.01 * i;
  }
  fz_check_arr("masked dx", dx, want, N, 1e-12);
  fz_check_arr("masked dy", dy, dyw, N, 1e-12);
#endif

  fz_zero(dx, N);
  __enzyme_autodiff((void *)f_maskload, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = cond[i] ? 3 * x[i] * x[i] : 0;
  fz_check_arr("maskload dx", dx, want, N, 1e-12);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)f_gather, enzyme_dup, x, dx, enzyme_const, N);
  fz_zero(want, N);
  for (int i = 0; i < N; i++) want[idx[i]] += 2 * x[idx[i]] * (i + 1);
  fz_check_arr("gather dx", dx, want, N, 1e-12);

  fz_zero(dx, N);
  for (int i = 0; i < N; i++) dy[i] = 1.0 + i;
  __enzyme_autodiff((void *)f_scatter, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2 * cos(x[i]) * (1.0 + idx[i]);
  fz_check_arr("scatter dx", dx, want, N, 1e-12);
  for (int i = 0; i < N; i++) want[i] = 0;
  fz_check_arr("scatter dy zeroed", dy, want, N, 0);

  fz_fillf(xf, N, -1, 1);
  memset(dxf, 0, sizeof dxf);
  __enzyme_autodiff((void *)f_gatherf, enzyme_dup, xf, dxf, enzyme_const, N);
  for (int i = 0; i < N; i++) wantf[i] = 0;
  for (int i = 0; i < N; i++)
    if (cond[i]) { wantf[idx[i]] += xf[i]; wantf[i] += xf[idx[i]]; }
  fz_check_arrf("gatherf dx", dxf, wantf, N, 1e-5);
  return fz_finish();
}
