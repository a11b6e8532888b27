// OPT: O0 O1 O2 O3
// C99 `_Complex double` arithmetic as signal-processing and physics code writes it: a
// complex polynomial by Horner's rule with real coefficients (enzyme_dup array), |p(z)|^2
// with creal/cimag/conj, a discrete Fourier coefficient sum with cexp(I theta), complex
// division and cabs, all inside a function returning a real objective; complex numbers
// held in a local array and passed to a static helper by pointer.
// Oracle: analytic derivatives (Wirtinger calculus written out by hand in main) and
// central finite differences.
#include <complex.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { DEG = 4, K = 5 };

static void horner(const double *c, int deg, double complex z, double complex *out) {
  double complex p = c[deg];
  for (int k = deg - 1; k >= 0; k--) p = p * z + c[k];
  *out = p;
}

double complex_objective(const double *c, const double *sig, double zr, double zi) {
  double complex z = zr + zi * I, p;
  horner(c, DEG, z, &p);
  double f = creal(p * conj(p));
  double complex acc = 0;
  for (int k = 0; k < K; k++) acc += sig[k] * cexp(-I * 2.0 * M_PI * k / K);
  f += cabs(acc);
  double complex q = (p + 2.0) / (z * z + 3.0);
  f += cimag(q) + creal(q) * creal(q);
  return f;
}

static double g_c[DEG + 1], g_sig[K], g_zr, g_zi;
static double eval(void *ctx) {
  (void)ctx;
  return complex_objective(g_c, g_sig, g_zr, g_zi);
}

int main(void) {
  fz_seed(1165);
  fz_fill(g_c, DEG + 1, -1, 1);
  fz_fill(g_sig, K, -1, 1);
  g_zr = 0.6;
  g_zi = -0.4;
  double dc[DEG + 1] = {0}, dsig[K] = {0};
  fz_grad2 gz = __enzyme_autodiff2((void *)complex_objective, enzyme_dup, g_c, dc, enzyme_dup,
                                   g_sig, dsig, enzyme_out, g_zr, enzyme_out, g_zi);
  /* analytic d|p|^2/dc_k = 2 Re(conj(p) z^k) */
  double complex z = g_zr + g_zi * I, p = 0, zk = 1;
  for (int k = DEG; k >= 0; k--) p = p * z + g_c[k];
  char nm[48];
  for (int k = 0; k <= DEG; k++) {
    double complex den = z * z + 3.0;
    /* q = (p + 2)/den; dq/dc_k = z^k / den */
    double complex q = (p + 2.0) / den, dq = zk / den;
    double want = 2 * creal(conj(p) * zk) + cimag(dq) + 2 * creal(q) * creal(dq);
    snprintf(nm, sizeof nm, "dc[%d] analytic", k);
    fz_check(nm, dc[k], want, 1e-12);
    zk *= z;
  }
  for (int k = 0; k < K; k++) {
    snprintf(nm, sizeof nm, "dsig[%d] vs FD", k);
    fz_check(nm, dsig[k], fz_fd_ptr(eval, NULL, &g_sig[k]), 1e-6);
  }
  fz_check("d/dzr vs FD", gz.d0, fz_fd_ptr(eval, NULL, &g_zr), 1e-6);
  fz_check("d/dzi vs FD", gz.d1, fz_fd_ptr(eval, NULL, &g_zi), 1e-6);
  double tc[DEG + 1] = {0}, tsig[K] = {0};
  double t = __enzyme_fwddiff((void *)complex_objective, enzyme_dup, g_c, tc, enzyme_dup, g_sig,
                              tsig, g_zr, 1.0, g_zi, 0.0);
  fz_check("forward d/dzr", t, gz.d0, 1e-12);
  return fz_finish();
}
