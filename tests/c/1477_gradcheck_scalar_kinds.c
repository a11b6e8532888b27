// OPT: O0 O2
// Active scalars that are not one double or float, in reverse and forward mode: a long
// double (x86_fp80) before a buffer and a double, a float _Complex (one <2 x float>) beside
// a float buffer, a 16-byte vector of doubles (<2 x double>) beside a double. Oracle:
// analytic derivatives. crates/ferrozyme-cli/tests/tools.rs also builds this program with
// `--check-gradients` and runs it in strict mode: the check perturbs every floating leaf of
// an active scalar (each lane, the long double in full precision) and hands each leaf its
// own adjoint. Before (difftest C seed 9401 under --check-gradients): the long double was
// not perturbed, so its tangent made every forward check FAIL (0.616 vs 0.715) and its
// adjoint, handed out by argument position, went to the next scalar; the <2 x double>
// adjoint was bitcast to one double, which LLVM's verifier rejected (internal-error).
#include <complex.h>
#include "fz_test.h"

typedef double v2d __attribute__((vector_size(16)));
extern int enzyme_dup, enzyme_const;

extern fz_grad2 __enzyme_autodiff_lg(void *, long double, int, const double *, double *, int, int, double);
extern double __enzyme_fwddiff_lg(void *, int, long double, long double, int, const double *, double *, int,
                                  int, int, double, double);
extern float _Complex __enzyme_autodiff_cf(void *, float _Complex, int, const float *, float *, int, int);
extern float __enzyme_fwddiff_cf(void *, float _Complex, float _Complex, int, const float *, float *, int,
                                 int);
extern fz_grad3 __enzyme_autodiff_v(void *, v2d, double);
extern double __enzyme_fwddiff_v(void *, v2d, v2d, double, double);

/* e^(l/2) * sum x_i^2 + a^2 l */
__attribute__((noinline)) double gl(long double l, const double *x, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return (double)expl(0.5L * l) * s + a * a * (double)l;
}

/* Re z * (Im z)^2 + Re z * sum p_i */
__attribute__((noinline)) float fcz(float _Complex z, const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return crealf(z) * cimagf(z) * cimagf(z) + crealf(z) * s;
}

/* v0 v1^2 + w v0 */
__attribute__((noinline)) double fv(v2d v, double w) { return v[0] * v[1] * v[1] + w * v[0]; }

int main(void) {
  enum { N = 4 };
  volatile long double lv = 0.35L;
  long double l = lv;
  double x[N] = {0.5, -1.25, 0.75, 1.5}, dx[N] = {0}, a = -0.8;
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * x[i];
  double el = (double)expl(0.5L * l);
  fz_grad2 g = __enzyme_autodiff_lg((void *)gl, l, enzyme_dup, x, dx, enzyme_const, N, a);
  fz_check("gl d/dl", g.d0, 0.5 * el * s + a * a, 1e-12);
  fz_check("gl d/da", g.d1, 2 * a * (double)l, 1e-12);
  for (int i = 0; i < N; i++) fz_check("gl d/dx", dx[i], 2 * el * x[i], 1e-12);
  double tx[N] = {0.3, 0.1, -0.2, 0.4};
  long double tl = 0.7L;
  double ta = -0.6, dir = 0;
  for (int i = 0; i < N; i++) dir += 2 * el * x[i] * tx[i];
  double t = __enzyme_fwddiff_lg((void *)gl, enzyme_dup, l, tl, enzyme_dup, x, tx, enzyme_const, N,
                                 enzyme_dup, a, ta);
  fz_check("gl forward", t, dir + (0.5 * el * s + a * a) * (double)tl + 2 * a * (double)l * ta, 1e-12);

  float p[N] = {0.25f, -0.5f, 1.0f, 0.125f}, dp[N] = {0}, ps = 0;
  for (int i = 0; i < N; i++) ps += p[i];
  float re = 0.6f, im = -1.1f;
  float _Complex gz = __enzyme_autodiff_cf((void *)fcz, re + im * I, enzyme_dup, p, dp, enzyme_const, N);
  fz_check("fcz d/dre", crealf(gz), im * im + ps, 1e-6);
  fz_check("fcz d/dim", cimagf(gz), 2 * re * im, 1e-6);
  for (int i = 0; i < N; i++) fz_check("fcz d/dp", dp[i], re, 1e-6);
  float tp[N] = {1.0f, 0.0f, -0.5f, 0.25f}, tre = 0.4f, tim = -0.3f, tps = 0;
  for (int i = 0; i < N; i++) tps += tp[i];
  float tz = __enzyme_fwddiff_cf((void *)fcz, re + im * I, tre + tim * I, enzyme_dup, p, tp, enzyme_const, N);
  fz_check("fcz forward", tz, (im * im + ps) * tre + 2 * re * im * tim + re * tps, 1e-6);

  v2d v = {0.7, -1.3}, tv = {0.5, 0.25};
  double w = 0.9;
  fz_grad3 gv = __enzyme_autodiff_v((void *)fv, v, w);
  fz_check("fv d/dv0", gv.d0, v[1] * v[1] + w, 1e-12);
  fz_check("fv d/dv1", gv.d1, 2 * v[0] * v[1], 1e-12);
  fz_check("fv d/dw", gv.d2, v[0], 1e-12);
  double tw = -0.2;
  double tfv = __enzyme_fwddiff_v((void *)fv, v, tv, w, tw);
  fz_check("fv forward", tfv, (v[1] * v[1] + w) * tv[0] + 2 * v[0] * v[1] * tv[1] + v[0] * tw, 1e-12);
  return fz_finish();
}
