// OPT: O0 O2
// `_Float16` storage and arithmetic (`half` in IR) beside float: a half array with a
// shadow, multiplied in half precision, widened and mixed with float libm; the same
// array's struct carries a `__float128` tolerance that is only compared, which stays
// allowed (a __float128 or __bf16 value read from shadowed memory *into* the result is
// refused: tests/errors/enz36_float128_dup_array.c, enz36_bf16_dup_array.c).
// Oracles: the analytic derivative evaluated in float (half rounding: tolerance 1e-2),
// forward mode = reverse mode per direction.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct {
  _Float16 h[4];
  __float128 tol;
  float w;
} cfg;

extern float __enzyme_autodiff_hf(void *, ...);

float f(cfg *c, int n) {
  float s = 0;
  _Float16 w16 = (_Float16)c->w;
  for (int i = 0; i < n; i++) {
    _Float16 p = c->h[i] * w16; /* half multiply */
    float q = (float)c->h[i];
    s += (float)p * (float)p + sinf(q * c->w);
    if (q > (float)c->tol) s += 0.5f * q; /* the tolerance only decides */
  }
  return s;
}

int main(void) {
  enum { N = 4 };
  const float h0[N] = {0.5f, -0.25f, 1.0f, 0.75f};
  cfg c, dc;
  memset(&c, 0, sizeof c);
  memset(&dc, 0, sizeof dc);
  for (int i = 0; i < N; i++) c.h[i] = (_Float16)h0[i];
  c.tol = 0.6;
  c.w = 0.5f;
  __enzyme_autodiff_hf((void *)f, enzyme_dup, &c, &dc, enzyme_const, N);
  float want_w = 0;
  for (int i = 0; i < N; i++) {
    float hi = (float)c.h[i], w = c.w;
    float want_h = 2 * hi * w * w + cosf(hi * w) * w + (hi > 0.6f ? 0.5f : 0.0f);
    want_w += 2 * hi * hi * w + cosf(hi * w) * hi;
    fz_check("d/dh", (float)dc.h[i], want_h, 1e-2);
  }
  fz_check("d/dw", dc.w, want_w, 1e-2);
  for (int j = 0; j < N; j++) {
    cfg c2 = c, t;
    memset(&t, 0, sizeof t);
    t.h[j] = 1;
    float tj = __enzyme_fwddiff_f32p((void *)f, enzyme_dup, &c2, &t, enzyme_const, N);
    fz_check("fwd = rev", tj, (float)dc.h[j], 1e-2);
  }
  return fz_finish();
}
