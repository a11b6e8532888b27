// OPT: O0 O2
// C99 complex arithmetic on the differentiated path: multiplication and division
// (clang calls __muldc3/__divdc3 for the non-finite cases at -O2, always at -O0),
// cabs, and the holomorphic library functions (cexp, clog, csqrt, csin, ccos, ctan,
// csinh, ccosh, ctanh) in double and float, reverse and forward mode.
// Truth: central differences in double; the float functions are checked against
// their double twins' finite differences (the float rules must match the same math).
#include <complex.h>
#include "fz_test.h"
#include "fz_modes.h"

#define N 5
double cmul_chain(const double *p, int n) {
  double _Complex z = 1.0;
  for (int k = 0; k < n; k++) {
    double _Complex w = p[2 * k] + I * p[2 * k + 1];
    z = z * w + 0.1 * w * w;
  }
  return creal(z) * cimag(z) + creal(z);
}

double cdiv(const double *p) {
  double _Complex a = p[0] + I * p[1], b = p[2] + I * p[3];
  double _Complex q = a / b;
  return creal(q) + 2.0 * cimag(q);
}

double clib(const double *p) {
  double _Complex a = p[0] + I * p[1];
  double _Complex s = cexp(a) * csqrt(a) + clog(a) - csin(a) * ccos(a) + ctan(0.5 * a);
  double _Complex h = csinh(a) + ccosh(0.3 * a) * ctanh(a);
  return cabs(a) + creal(s) * cimag(h) + cimag(s) - creal(h);
}

float clibf(const float *p) {
  float _Complex a = p[0] + I * p[1];
  float _Complex s = cexpf(a) * csqrtf(a) + clogf(a) - csinf(a) * ccosf(a) + ctanf(0.5f * a);
  float _Complex h = csinhf(a) + ccoshf(0.3f * a) * ctanhf(a);
  return cabsf(a) + crealf(s) * cimagf(h) + cimagf(s) - crealf(h);
}

float cdivf(const float *p) {
  float _Complex a = p[0] + I * p[1], b = p[2] + I * p[3];
  float _Complex q = a / b * a;
  return crealf(q) + 2.0f * cimagf(q);
}

double cdiv_twin(const double *p) {
  double _Complex a = p[0] + I * p[1], b = p[2] + I * p[3];
  double _Complex q = a / b * a;
  return creal(q) + 2.0 * cimag(q);
}

struct ctx { double *p; int w; };
static double eval(void *c) {
  struct ctx *k = c;
  switch (k->w) {
  case 0: return cmul_chain(k->p, N);
  case 1: return cdiv(k->p);
  case 2: return clib(k->p);
  default: return cdiv_twin(k->p);
  }
}

int main(void) {
  fz_seed(288);
  double p[2 * N], dp[2 * N], fd[2 * N];
  fz_fill(p, 2 * N, 0.2, 0.9);
  struct ctx c = {p, 0};

  fz_zero(dp, 2 * N);
  __enzyme_autodiff((void *)cmul_chain, enzyme_dup, p, dp, enzyme_const, N);
  fz_fd_grad(eval, &c, p, 2 * N, fd);
  fz_check_arr("cmul_chain", dp, fd, 2 * N, 1e-6);

  fz_zero(dp, 4);
  __enzyme_autodiff((void *)cdiv, enzyme_dup, p, dp);
  c.w = 1;
  fz_fd_grad(eval, &c, p, 4, fd);
  fz_check_arr("cdiv", dp, fd, 4, 1e-6);

  fz_zero(dp, 2);
  __enzyme_autodiff((void *)clib, enzyme_dup, p, dp);
  c.w = 2;
  fz_fd_grad(eval, &c, p, 2, fd);
  fz_check_arr("clib", dp, fd, 2, 1e-6);

  // Forward mode: one tangent direction per input.
  for (int i = 0; i < 2; i++) {
    double t[2] = {0, 0};
    t[i] = 1;
    double d = __enzyme_fwddiff((void *)clib, enzyme_dup, p, t);
    fz_check("clib fwd", d, fd[i], 1e-6);
  }

  // Float versions against the double twin's differences.
  float pf[4], dpf[4] = {0, 0, 0, 0}, want[4];
  for (int i = 0; i < 4; i++) pf[i] = (float)p[i];
  double pd[4];
  for (int i = 0; i < 4; i++) pd[i] = pf[i];
  struct ctx cd = {pd, 2};
  fz_fd_grad(eval, &cd, pd, 2, fd);
  for (int i = 0; i < 2; i++) want[i] = (float)fd[i];
  __enzyme_autodiff((void *)clibf, enzyme_dup, pf, dpf);
  fz_check_arrf("clibf", dpf, want, 2, 2e-4);
  for (int i = 0; i < 2; i++) {
    float t[4] = {0, 0, 0, 0};
    t[i] = 1;
    float d = __enzyme_fwddiff_f32p((void *)clibf, enzyme_dup, pf, t);
    fz_check("clibf fwd", d, want[i], 2e-4);
  }

  cd.w = 3;
  fz_fd_grad(eval, &cd, pd, 4, fd);
  for (int i = 0; i < 4; i++) { want[i] = (float)fd[i]; dpf[i] = 0; }
  __enzyme_autodiff((void *)cdivf, enzyme_dup, pf, dpf);
  fz_check_arrf("cdivf", dpf, want, 4, 2e-4);
  return fz_finish();
}
