// OPT: O0 O1 O2 O3
// probe43: C99 <complex.h> (cexp, clog, csqrt, cpow, csin, ccos, ctanh, cabs, carg,
// conj, complex division, a sum of cexp(-i k z)) in a real loss; float functions through
// `float __enzyme_autodiff_f` / `__enzyme_fwddiff_f`, long double through the `_l`
// hooks (expl, logl, powl, cbrtl), and a float array accumulated in long double
// (sqrtl(fabsl), fmaf). Oracles: central differences, analytic derivatives (float: in
// double, 1e-5; long double: 1e-14). Passed as written.
#include "fz_test.h"
#include <complex.h>
#include "fz_grad_check.h"
double cplx(const double *x, int n) {
  (void)n;
  double complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  double complex a = cexp(z) * w / (z + 2.0) + clog(w) + csqrt(z * w) + cpow(w, 1.5) + csin(z) * ccos(w) + ctanh(z);
  double complex acc = 0;
  for (int k = 0; k < 5; k++) acc += cexp(-I * 0.7 * k * z) * (x[k % 4] + 0.0 * I);
  return creal(a) + 2 * cimag(a) + cabs(acc) + carg(w) + cabs(conj(z) * w);
}
extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);
extern long double __enzyme_autodiff_l(void *, ...);
extern long double __enzyme_fwddiff_l(void *, ...);
float ff(float x) { float s = 0; for (int i = 1; i < 6; i++) s += sinf(x * i) / i + hypotf(x, (float)i); return s * expf(-0.1f * x); }
long double fl(long double x) { return expl(x) * logl(1 + x * x) + powl(x, 2.5L) + cbrtl(x); }
/* mixed: float array in, double accumulator, long double intermediate */
double mixed(const float *a, int n) {
  long double acc = 0;
  for (int i = 0; i < n; i++) acc += (long double)a[i] * a[i] + sqrtl(fabsl((long double)a[i]) + 1);
  return (double)acc + fmaf(a[0], a[1], 0.5f);
}
int main(void) {
  double x[4] = {0.3, -0.4, 1.2, 0.6};
  FZ_CHECK_GRAD("complex", cplx, x, 4, 1e-6);
  {
  float x = 0.7f;
  float d = __enzyme_autodiff_f((void *)ff, x);
  double want;
  { double xd = x, s = 0, ds = 0; for (int i = 1; i < 6; i++) { s += sin(xd*i)/i + hypot(xd, i); ds += cos(xd*i) + xd / hypot(xd, i); }
    want = ds * exp(-0.1*xd) - 0.1 * s * exp(-0.1*xd); }
  fz_check("float rev", d, want, 1e-5);
  fz_check("float fwd", __enzyme_fwddiff_f((void *)ff, x, 1.0f), want, 1e-5);
  long double L = 1.3L;
  long double dl = __enzyme_autodiff_l((void *)fl, L);
  long double wl = expl(L) * logl(1 + L*L) + expl(L) * 2 * L / (1 + L*L) + 2.5L * powl(L, 1.5L) + 1.0L / (3 * cbrtl(L) * cbrtl(L));
  fz_check("long double rev", (double)dl, (double)wl, 1e-14);
  fz_check("long double fwd", (double)__enzyme_fwddiff_l((void *)fl, L, 1.0L), (double)wl, 1e-14);
  float a[4] = {0.3f, -1.2f, 0.8f, 2.0f}, da[4] = {0};
  __enzyme_autodiff((void *)mixed, enzyme_dup, a, da, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    double w = 2.0 * a[i] + copysign(1.0, a[i]) * 0.5 / sqrt(fabs(a[i]) + 1.0) + (i == 0 ? a[1] : i == 1 ? a[0] : 0);
    fz_check("mixed float/long double", da[i], w, 1e-6);
  }
  }
  return fz_finish();
}
