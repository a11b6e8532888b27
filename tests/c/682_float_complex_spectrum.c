// OPT: O0 O1 O2 O3
// A user's spectral loss: a small DFT written with <complex.h> (`cexp`, `cabs`, `carg`,
// `creal`/`cimag`, complex multiply and divide), the same in `float complex` (`cexpf`,
// `cabsf`, float accumulators), a `long double` accumulator over double inputs, and a
// window table in a `static` cache filled on the first call (inactive data, global
// state that survives between calls). Oracles: finite differences of the primal
// (central, in double; the float version against its own float finite differences with a
// float tolerance) and forward vs reverse through the dot-product identity.
#include <complex.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

#define N 8
#define PI 3.14159265358979323846

static double window[N];
static int window_ready;

static const double *get_window(void) {
  if (!window_ready) {
    for (int i = 0; i < N; i++) window[i] = 0.5 - 0.5 * cos(2 * PI * i / (N - 1));
    window_ready = 1;
  }
  return window;
}

/* sum_k |X_k|^1.5 + phase penalty, X = DFT(w .* x) */
double spectral_loss(const double *x) {
  const double *w = get_window();
  double loss = 0;
  for (int k = 1; k < N / 2; k++) {
    double complex acc = 0;
    for (int n = 0; n < N; n++) acc += w[n] * x[n] * cexp(-I * (2 * PI * k * n / N));
    double a = cabs(acc);
    loss += pow(a, 1.5) + 0.1 * carg(acc + 3.0) * creal(acc / (1.0 + I * cimag(acc)));
  }
  return loss;
}

float spectral_loss_f(const float *x) {
  float loss = 0;
  for (int k = 1; k < N / 2; k++) {
    float complex acc = 0;
    for (int n = 0; n < N; n++)
      acc += x[n] * cexpf(-I * (float)(2 * PI * k * n / N));
    loss += cabsf(acc) * cabsf(acc) + 0.5f * crealf(acc * acc);
  }
  return loss;
}

/* long double accumulation of double data */
void ld_norm(const double *x, double *out) {
  long double s = 0;
  for (int i = 0; i < N; i++) s += (long double)x[i] * x[i] * (1.0L + i);
  *out = (double)sqrtl(s);
}

static double gx[N];
static float gxf[N];
static double eval_loss(void *c) { (void)c; return spectral_loss(gx); }
static float eval_loss_f(void *c) { (void)c; return spectral_loss_f(gxf); }
static double eval_ld(void *c) { (void)c; double o; ld_norm(gx, &o); return o; }

int main(void) {
  fz_seed(682);
  fz_fill(gx, N, -1.0, 1.0);
  for (int i = 0; i < N; i++) gxf[i] = (float)gx[i];

  double dx[N] = {0};
  __enzyme_autodiff_v((void *)spectral_loss, enzyme_dup, gx, dx);
  for (int i = 0; i < N; i++)
    fz_check("complex DFT loss d/dx", dx[i], fz_fd_ptr(eval_loss, 0, &gx[i]), 1e-6);

  /* forward vs reverse: <grad, v> */
  double v[N], want = 0;
  fz_fill(v, N, -1.0, 1.0);
  for (int i = 0; i < N; i++) want += dx[i] * v[i];
  double jv = __enzyme_fwddiff((void *)spectral_loss, enzyme_dup, gx, v);
  fz_check("complex DFT loss forward = <grad, v>", jv, want, 1e-10 * (1 + fabs(want)));

  float dxf[N] = {0};
  __enzyme_autodiff_f((void *)spectral_loss_f, enzyme_dup, gxf, dxf);
  for (int i = 0; i < N; i++) {
    float h = 1e-2f;
    float keep = gxf[i];
    gxf[i] = keep + h;
    double fp = eval_loss_f(0);
    gxf[i] = keep - h;
    double fm = eval_loss_f(0);
    gxf[i] = keep;
    fz_check("float complex loss d/dx", dxf[i], (fp - fm) / (2 * h), 2e-2);
  }

  double o = 0, d_o = 1.0, dxl[N] = {0};
  __enzyme_autodiff_v((void *)ld_norm, enzyme_dup, gx, dxl, enzyme_dup, &o, &d_o);
  for (int i = 0; i < N; i++)
    fz_check("long double norm d/dx", dxl[i], fz_fd_ptr(eval_ld, 0, &gx[i]), 1e-6);
  return fz_finish();
}
