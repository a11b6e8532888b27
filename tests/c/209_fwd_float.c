// OPT: O0 O2
// Forward mode on f32 code through typed prototypes (varargs would promote
// float to double): float f(float), float f(float, float), and float arrays
// with float shadows. Oracles in double: analytic derivatives and float
// finite differences (tolerance 1e-3); dot identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

#define N 16

float g1(float x) { return x * x * x - 3.0f * x / (1.0f + x * x) + sinf(x); }
float g2(float x, float y) { return x * y - y / x + expf(0.5f * x) * y * y; }
float wsum(const float *x, const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += w[i] * tanhf(x[i]) * x[i];
  return s;
}

static float X[N], W[N];
static float e_wsum(void *c) { (void)c; return wsum(X, W, N); }

int main(void) {
  fz_seed(209);
  for (int t = 0; t < 4; t++) {
    float x = (float)fz_uniform(0.5, 2.0), y = (float)fz_uniform(-2.0, 2.0);
    double xd = x, yd = y, q = 1.0 + xd * xd;
    double d1 = 3.0 * xd * xd - 3.0 * (q - 2.0 * xd * xd) / (q * q) + cos(xd);
    fz_mcheck("dg1/dx (f32)", __enzyme_fwddiff_f32((void *)g1, x, 1.0f), d1, 1e-3);
    fz_mcheck("dg1/dx * 0.25 (f32)", __enzyme_fwddiff_f32((void *)g1, x, 0.25f), 0.25 * d1, 1e-3);
    double gx = yd + yd / (xd * xd) + 0.5 * exp(0.5 * xd) * yd * yd;
    double gy = xd - 1.0 / xd + 2.0 * exp(0.5 * xd) * yd;
    fz_mcheck("dg2/dx (f32)", __enzyme_fwddiff_f32x2((void *)g2, x, 1.0f, y, 0.0f), gx, 1e-3);
    fz_mcheck("dg2/dy (f32)", __enzyme_fwddiff_f32x2((void *)g2, x, 0.0f, y, 1.0f), gy, 1e-3);
  }
  float dx[N], dw[N], gxs[N], gws[N];
  double v[2 * N], jtw[2 * N], wantx[N], wantw[N];
  fz_fillf(X, N, -1.5, 1.5);
  fz_fillf(W, N, 0.5, 1.5);
  fz_fillf(dx, N, -1, 1);
  fz_fillf(dw, N, -1, 1);
  double want = 0.0;
  for (int i = 0; i < N; i++) {
    double th = tanh((double)X[i]);
    wantx[i] = W[i] * ((1.0 - th * th) * X[i] + th);
    wantw[i] = th * X[i];
    want += wantx[i] * dx[i] + wantw[i] * dw[i];
    v[i] = dx[i];
    v[N + i] = dw[i];
  }
  float jv = __enzyme_fwddiff_f32p((void *)wsum, enzyme_dup, X, dx, enzyme_dup, W, dw, enzyme_const, N);
  fz_mcheck("wsum directional (f32)", jv, want, 1e-3);
  /* FD per input, combined along the tangent (float primal: 5-point, 1e-2 step) */
  double fd = 0.0;
  for (int i = 0; i < N; i++) fd += fz_fd_ptrf(e_wsum, NULL, &X[i]) * dx[i] + fz_fd_ptrf(e_wsum, NULL, &W[i]) * dw[i];
  fz_mcheck2("wsum directional (f32) vs fd", jv, want, 1e-3, fd, 1e-3);
  memset(gxs, 0, sizeof gxs);
  memset(gws, 0, sizeof gws);
  __enzyme_autodiff((void *)wsum, enzyme_dup, X, gxs, enzyme_dup, W, gws, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    fz_check("rev dwsum/dx (f32)", gxs[i], wantx[i], 1e-4);
    fz_check("rev dwsum/dw (f32)", gws[i], wantw[i], 1e-4);
    jtw[i] = gxs[i];
    jtw[N + i] = gws[i];
  }
  double jvd = jv, w = 1.0;
  fz_mcheck_dot("wsum (f32)", v, jtw, 2 * N, &jvd, &w, 1, 1e-4);
  return fz_finish();
}
