// OPT: O0 O1 O2 O3
// float arrays accumulated in double, double results stored into float
// outputs, float libm (sinf/expf) mixed with double libm.
#include "fz_test.h"

#define N 16

double mixdot(const float *a, const float *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (double)a[i] * (double)b[i] + sin((double)a[i]);
  return s;
}

/* out[i] = (float)(exp(x[i]) * scale) ; scale is double */
void tofloat(const double *x, float *out, double scale, int n) {
  for (int i = 0; i < n; i++) out[i] = (float)(exp(x[i]) * scale) + sinf((float)x[i]);
}

float fsum(const float *a, const double *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += a[i] * (float)w[i] * expf(a[i]);
  return s;
}

typedef struct { double d0; } g1;

int main(void) {
  fz_seed(115);
  float a[N], b[N], da[N], db[N];
  fz_fillf(a, N, -1, 1);
  fz_fillf(b, N, -1, 1);
  for (int i = 0; i < N; i++) da[i] = db[i] = 0.0f;
  __enzyme_autodiff((void *)mixdot, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char w[32];
    snprintf(w, sizeof w, "dmixdot/da[%d]", i);
    fz_check(w, da[i], (double)b[i] + cos((double)a[i]), 1e-6);
    snprintf(w, sizeof w, "dmixdot/db[%d]", i);
    fz_check(w, db[i], (double)a[i], 1e-6);
  }

  double x[N], dx[N], scale = 0.7;
  float out[N], dout[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  for (int i = 0; i < N; i++) dout[i] = (float)(i + 1);
  double dscale = __enzyme_autodiff((void *)tofloat, enzyme_dup, x, dx, enzyme_dup, out, dout,
                                    scale, enzyme_const, N);
  double want_ds = 0.0;
  for (int i = 0; i < N; i++) {
    char w[32];
    snprintf(w, sizeof w, "dtofloat/dx[%d]", i);
    fz_check(w, dx[i], (i + 1) * (exp(x[i]) * scale + cos(x[i])), 1e-5);
    want_ds += (i + 1) * exp(x[i]);
  }
  fz_check("dtofloat/dscale", dscale, want_ds, 1e-5);

  double wv[N], dw[N];
  fz_fill(wv, N, -1, 1);
  fz_zero(dw, N);
  for (int i = 0; i < N; i++) da[i] = 0.0f;
  float (*hook)(void *, ...) = 0;
  (void)hook;
  extern float __enzyme_autodiff_f(void *, ...);
  __enzyme_autodiff_f((void *)fsum, enzyme_dup, a, da, enzyme_dup, wv, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char w[32];
    double e = exp((double)a[i]);
    snprintf(w, sizeof w, "dfsum/da[%d]", i);
    fz_check(w, da[i], (double)(float)wv[i] * e * (1.0 + a[i]), 1e-4);
    snprintf(w, sizeof w, "dfsum/dw[%d]", i);
    fz_check(w, dw[i], (double)a[i] * e, 1e-4);
  }
  return fz_finish();
}
