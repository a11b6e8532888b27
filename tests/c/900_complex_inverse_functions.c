// OPT: O0 O1 O2 O3
// A user's conformal-map loss written with <complex.h>'s inverse functions (sweep22):
// `casin`, `cacos`, `catan`, `casinh`, `cacosh`, `catanh`, `cpow` with an active
// exponent, `conj`, `CMPLX`, and the float versions `casinf`, `catanf`, `cpowf`. Every
// point stays away from the functions' branch cuts. Oracles: central finite differences
// of the primal (double; the float twin against its own float differences with a float
// tolerance) and forward vs reverse through the dot-product identity.
#include <complex.h>
#include "fz_test.h"

#ifndef CMPLX /* glibc defines it for GCC >= 4.7 only */
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);

#define NP 6

double conformal(const double *p) {
  double complex z1 = CMPLX(p[0], p[1]);
  double complex z2 = p[2] + I * p[3];
  double complex w = CMPLX(p[4], p[5]);
  double complex a = casin(z1);
  double complex b = cacos(z2);
  double complex c = catan(z1 * z2);
  double complex d = casinh(z2);
  double complex e = cacosh(z1 + 2.0);
  double complex f = catanh(0.5 * z1);
  double complex g = cpow(z2, w);
  double complex h = conj(a) * b;
  return creal(a * b) + cimag(c) + creal(d) * cimag(e) + cabs(f) + creal(g) - cimag(g)
         + cimag(h) + 0.25 * creal(cpow(z1, 2.5));
}

float conformalf(const float *p) {
  float complex z1 = p[0] + I * p[1];
  float complex z2 = p[2] + I * p[3];
  float complex w = p[4] + I * p[5];
  float complex a = casinf(z1);
  float complex c = catanf(z1 * z2);
  float complex g = cpowf(z2, w);
  return crealf(a) * cimagf(a) + cimagf(c) + crealf(g) + cabsf(g);
}

static double ev(void *ctx) { return conformal((const double *)ctx); }
static float evf(void *ctx) { return conformalf((const float *)ctx); }

int main(void) {
  double p[NP] = {0.3, 0.2, -0.4, 0.5, 0.7, -0.3};
  double dp[NP] = {0}, fd[NP];
  __enzyme_autodiff((void *)conformal, enzyme_dup, p, dp);
  fz_fd_grad(ev, p, p, NP, fd);
  fz_check_arr("d conformal / dp", dp, fd, NP, 1e-6);

  // forward mode along t: <J t, 1> = <t, grad>
  double t[NP] = {0.7, -0.2, 0.4, 1.1, -0.6, 0.3};
  double jt = __enzyme_fwddiff((void *)conformal, enzyme_dup, p, t);
  double dot = 0;
  for (int i = 0; i < NP; i++) dot += t[i] * dp[i];
  fz_check("forward . t vs reverse", jt, dot, 1e-10);

  float pf[NP] = {0.3f, 0.2f, -0.4f, 0.5f, 0.7f, -0.3f};
  float dpf[NP] = {0};
  __enzyme_autodiff_f((void *)conformalf, enzyme_dup, pf, dpf);
  for (int i = 0; i < NP; i++) {
    char buf[64];
    snprintf(buf, sizeof buf, "d conformalf / dp[%d]", i);
    fz_check(buf, dpf[i], fz_fd_ptrf(evf, pf, &pf[i]), 2e-3);
  }
  return fz_finish();
}
