// OPT: O0 O1 O2 O3
// CFLAGS: -march=x86-64-v3
// REQUIRES: avx2 fma
// Vectorizable loops built with -march=x86-64-v3 (AVX2 + FMA): <4 x double>
// loads/stores, fma contraction, explicit fma(), a reduction, and a stencil
// with a non-multiple-of-4 length (vector body + scalar epilogue).
#include "fz_test.h"

#define N 103

double axpy_dot(const double *x, const double *y, double a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = a * x[i] + y[i];
    s += t * t;
  }
  return s;
}

void stencil(const double *x, double *y, int n) {
  for (int i = 1; i + 1 < n; i++) y[i] = fma(x[i - 1], 0.25, fma(x[i], 0.5, x[i + 1] * 0.25 * x[i]));
}

double sumsq_f32(const float *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

struct ctx { double *x, *y; double a; };
static double eval(void *p) { struct ctx *c = p; return axpy_dot(c->x, c->y, c->a, N); }

int main(void) {
  fz_seed(116);
  double x[N], y[N], dx[N], dy[N], fdx[N], fdy[N], a = 0.8;
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  fz_zero(dx, N);
  fz_zero(dy, N);
  double da = __enzyme_autodiff((void *)axpy_dot, enzyme_dup, x, dx, enzyme_dup, y, dy, a,
                                enzyme_const, N);
  double wda = 0.0;
  for (int i = 0; i < N; i++) {
    double t = a * x[i] + y[i];
    fdx[i] = 2.0 * t * a;
    fdy[i] = 2.0 * t;
    wda += 2.0 * t * x[i];
  }
  fz_check_arr("daxpy/dx", dx, fdx, N, 1e-10);
  fz_check_arr("daxpy/dy", dy, fdy, N, 1e-10);
  fz_check("daxpy/da", da, wda, 1e-10);

  double out[N], dout[N], want[N];
  fz_zero(dx, N);
  fz_zero(out, N);
  for (int i = 0; i < N; i++) dout[i] = (i > 0 && i < N - 1) ? 1.0 + 0.01 * i : 0.0;
  double w[N];
  memcpy(w, dout, sizeof w);
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N);
  fz_zero(want, N);
  for (int i = 1; i + 1 < N; i++) {
    want[i - 1] += 0.25 * w[i];
    want[i] += (0.5 + 0.25 * x[i + 1]) * w[i];
    want[i + 1] += 0.25 * x[i] * w[i];
  }
  fz_check_arr("dstencil", dx, want, N, 1e-10);

  float xf[N], dxf[N];
  fz_fillf(xf, N, -1, 1);
  for (int i = 0; i < N; i++) dxf[i] = 0.0f;
  __enzyme_autodiff((void *)sumsq_f32, enzyme_dup, xf, dxf, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char s[32];
    snprintf(s, sizeof s, "dsumsq_f32[%d]", i);
    fz_check(s, dxf[i], 2.0 * xf[i], 1e-6);
  }
  (void)fdx; (void)fdy;
  return fz_finish();
}
