// OPT: O0 O1 O2 O3
// Mixed precisions in one function, as instrument and climate codes mix them: float
// inputs accumulated in a long double sum (Kahan-style compensation in double), a
// long double parameter through expl/logl/powl, results narrowed to double and float;
// a float function with float hooks (reverse returning float, forward with float
// tangents), and a function returning long double differentiated by a typed hook.
// Oracle: analytic derivatives (tolerances match each precision).
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddiff_f(void *, float, float);
extern long double __enzyme_autodiff_ld(void *, long double);

double mixed_sum(const float *x, int n, double scale) {
  long double acc = 0.0L;
  double comp = 0.0;
  for (int i = 0; i < n; i++) {
    double y = (double)x[i] * x[i] - comp;
    long double t = acc + y;
    comp = (double)((t - acc) - y);
    acc = t;
  }
  return scale * (double)acc;
}

float softplus_f(float x) { return log1pf(expf(x)) + 0.5f * x * x; }

long double ld_model(long double a) { return expl(-a) * powl(a, 3.0L) + logl(1.0L + a * a); }

int main(void) {
  enum { N = 6 };
  float x[N] = {0.5f, -1.25f, 2.0f, 0.75f, -0.1f, 1.5f}, dx[N] = {0};
  double scale = 1.7;
  double dscale = __enzyme_autodiff((void *)mixed_sum, enzyme_dup, x, dx, enzyme_const, N,
                                    enzyme_out, scale);
  double s2 = 0;
  char nm[48];
  for (int i = 0; i < N; i++) {
    s2 += (double)x[i] * x[i];
    snprintf(nm, sizeof nm, "float dx[%d]", i);
    fz_check(nm, dx[i], 2 * scale * x[i], 1e-6);
  }
  fz_check("d/dscale", dscale, s2, 1e-12);
  float tx[N] = {1, 0, 0, 0, 0, 1};
  double t = __enzyme_fwddiff((void *)mixed_sum, enzyme_dup, x, tx, enzyme_const, N, scale, 0.0);
  fz_check("forward float tangents", t, 2 * scale * (x[0] + x[5]), 1e-6);
  float xf = 0.8f;
  float want_f = 1.0f / (1.0f + expf(-xf)) + xf;
  fz_check("float reverse", __enzyme_autodiff_f((void *)softplus_f, xf), want_f, 1e-6);
  fz_check("float forward", __enzyme_fwddiff_f((void *)softplus_f, xf, 1.0f), want_f, 1e-6);
  long double a = 1.3L;
  long double want_ld =
      -expl(-a) * powl(a, 3.0L) + 3.0L * expl(-a) * a * a + 2.0L * a / (1.0L + a * a);
  long double got_ld = __enzyme_autodiff_ld((void *)ld_model, a);
  fz_check("long double reverse", (double)got_ld, (double)want_ld, 1e-15);
  return fz_finish();
}
