// OPT: O2 O3
// CFLAGS: -march=x86-64-v3
// float kernels the optimizer vectorizes (AVX2 at -O3): a saxpy-and-dot chain, a
// 5-point float stencil with a clamp, a float softmax cross-entropy with a max shift,
// and a float GEMV with a fused tanh activation; reverse and forward mode. Oracle:
// analytic (chain, clamped stencil, softmax) and central differences of the primal in
// float for the GEMV (five-point, tolerance ~1e-3).
// REQUIRES: avx2
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);

enum { N = 67, H = 9 };

float chain(const float *x, const float *y, int n) {
  float t[N];
  for (int i = 0; i < n; i++) t[i] = 1.5f * x[i] + y[i];
  float s = 0;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  return s;
}

float stencil(const float *u, int n) {
  float s = 0;
  for (int i = 2; i < n - 2; i++) {
    float lap = -u[i - 2] + 16 * u[i - 1] - 30 * u[i] + 16 * u[i + 1] - u[i + 2];
    float c = lap > 4.0f ? 4.0f : (lap < -4.0f ? -4.0f : lap);
    s += c * c;
  }
  return s;
}

float xent(const float *z, int label, int n) {
  float m = z[0];
  for (int i = 1; i < n; i++) m = z[i] > m ? z[i] : m;
  float s = 0;
  for (int i = 0; i < n; i++) s += expf(z[i] - m);
  return logf(s) + m - z[label];
}

float gemv_tanh(const float *W, const float *x, int h, int n) {
  float out = 0;
  for (int r = 0; r < h; r++) {
    float a = 0;
    for (int c = 0; c < n; c++) a += W[r * n + c] * x[c];
    out += tanhf(0.1f * a);
  }
  return out;
}

static float *g_y;
static float chain_ctx(void *c) { return chain((const float *)c, g_y, N); }
static float *g_x;
static float gemv_ctx(void *c) { return gemv_tanh((const float *)c, g_x, H, N); }

int main(void) {
  static float x[N], y[N], dx[N], dy[N], W[H * N], dW[H * N];
  fz_seed(5);
  fz_fillf(x, N, -1, 1);
  fz_fillf(y, N, -1, 1);
  fz_fillf(W, H * N, -1, 1);
  char nm[48];
  g_y = y;
  __enzyme_autodiff_f((void *)chain, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i += 11) {
    snprintf(nm, sizeof nm, "chain dx[%d]", i);
    fz_check(nm, dx[i], 3.0f * x[i] + y[i], 1e-5);
    snprintf(nm, sizeof nm, "chain dy[%d]", i);
    fz_check(nm, dy[i], x[i], 1e-6);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff_f((void *)stencil, enzyme_dup, x, dx, enzyme_const, N);
  {
    /* analytic: the clamp passes the derivative where |lap| < 4 (float lap recomputed) */
    static const float co[5] = {-1, 16, -30, 16, -1};
    double want[N] = {0};
    for (int i = 2; i < N - 2; i++) {
      float lap = -x[i - 2] + 16 * x[i - 1] - 30 * x[i] + 16 * x[i + 1] - x[i + 2];
      if (lap > 4.0f || lap < -4.0f) continue;
      for (int k = 0; k < 5; k++) want[i - 2 + k] += 2.0 * lap * co[k];
    }
    for (int i = 0; i < N; i += 7) {
      snprintf(nm, sizeof nm, "stencil dx[%d]", i);
      fz_check(nm, dx[i], want[i], 1e-5);
    }
    float t[N] = {0};
    t[10] = 1;
    fz_check("stencil forward", __enzyme_fwddiff_f((void *)stencil, x, t, N), want[10], 1e-5);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff_f((void *)xent, enzyme_dup, x, dx, enzyme_const, 5, enzyme_const, N);
  {
    double m = x[0], s = 0;
    for (int i = 1; i < N; i++) m = x[i] > m ? x[i] : m;
    for (int i = 0; i < N; i++) s += exp(x[i] - m);
    for (int i = 0; i < N; i += 6) {
      snprintf(nm, sizeof nm, "xent dz[%d]", i);
      fz_check(nm, dx[i], exp(x[i] - m) / s - (i == 5), 1e-5);
    }
  }
  g_x = x;
  __enzyme_autodiff_f((void *)gemv_tanh, enzyme_dup, W, dW, enzyme_const, x, enzyme_const, H,
                      enzyme_const, N);
  for (int k = 0; k < H * N; k += 53) {
    snprintf(nm, sizeof nm, "gemv dW[%d]", k);
    fz_check(nm, dW[k], fz_fd_ptrf(gemv_ctx, W, &W[k]), 2e-3);
  }
  return fz_finish();
}
