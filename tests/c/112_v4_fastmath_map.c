// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math -march=x86-64-v4 -mprefer-vector-width=512
// REQUIRES: avx512f
// AVX-512 map loops (no reductions, so no fast-math needed): gather
// y[i] = f(x[idx[i]]), scatter y[idx[i]] = f(x[i]), strided x[2i], x[3i+1],
// conditional select loads, float and double.
#include "fz_test.h"

#define N 203
int idx[N];
int cond[N];

void gather(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[idx[i]] * x[idx[i]] + x[i];
}
void scatter(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[idx[i]] = x[i] * x[i] * 3.0;
}
void strided(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n / 3; i++) y[i] = x[3 * i] * x[3 * i + 1] - x[3 * i + 2];
}
void cond_map(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = cond[i] ? x[i] * x[i] : x[n - 1 - i] * 2.0;
}
void gatherf(const float *restrict x, float *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[idx[i]] * x[i];
}
void cond_store(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++)
    if (cond[i]) y[i] = x[i] * x[i];
}

#define RUN(f, m)                                                                 \
  do {                                                                            \
    double xx[N], y[N], dx[N], dy[N];                                              \
    memcpy(xx, x, sizeof xx);                                                     \
    for (int i = 0; i < N; i++) y[i] = 0.5;                                       \
    fz_zero(dx, N);                                                               \
    for (int i = 0; i < N; i++) dy[i] = i < (m) ? 1.0 + 0.01 * i : 0.0;           \
    __enzyme_autodiff((void *)f, enzyme_dup, xx, dx, enzyme_dup, y, dy, enzyme_const, N); \
    check_map(#f, f, x, N, m, dx);                                                \
  } while (0)
typedef void (*mapfn)(const double *, double *, int);
static void check_map(const char *name, mapfn f, const double *x0, int n, int m, double *dx) {
  double want[N];
  /* Jacobian-transpose * w via FD of w.y */
  for (int j = 0; j < n; j++) {
    double xp[N], xm[N], yp[N], ym[N], h = 1e-6;
    memcpy(xp, x0, sizeof xp); memcpy(xm, x0, sizeof xm);
    for (int i = 0; i < N; i++) yp[i] = ym[i] = 0.5;
    xp[j] += h; xm[j] -= h;
    f(xp, yp, n); f(xm, ym, n);
    double s = 0;
    for (int i = 0; i < m; i++) s += (1.0 + 0.01 * i) * (yp[i] - ym[i]);
    want[j] = s / (2 * h);
  }
  fz_check_arr(name, dx, want, n, 1e-6);
}

int main(void) {
  fz_seed(212);
  for (int i = 0; i < N; i++) { idx[i] = (i * 31 + 7) % N; cond[i] = (fz_rand_u64() >> 7) & 1; }
  double x[N];
  fz_fill(x, N, -1, 1);
  RUN(gather, N);
  RUN(scatter, N);
  RUN(strided, N / 3);
  RUN(cond_map, N);
  RUN(cond_store, N);
  float xf[N], yf[N], dxf[N], dyf[N], wf[N];
  fz_fillf(xf, N, -1, 1);
  memset(dxf, 0, sizeof dxf);
  for (int i = 0; i < N; i++) { dyf[i] = 1.0f; yf[i] = 0; wf[i] = 0; }
  __enzyme_autodiff((void *)gatherf, enzyme_dup, xf, dxf, enzyme_dup, yf, dyf, enzyme_const, N);
  for (int i = 0; i < N; i++) { wf[idx[i]] += xf[i]; wf[i] += xf[idx[i]]; }
  fz_check_arrf("gatherf", dxf, wf, N, 1e-5);
  return fz_finish();
}
