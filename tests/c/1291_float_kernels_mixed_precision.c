// OPT: O0 O2
// Single-precision kernels with double accumulation, as graphics and ML C code mixes
// them: a float softmax cross-entropy whose log-sum-exp is accumulated in double, a
// float 3x3 rotation (sinf/cosf) applied to float points with the error summed in
// double, a float Horner polynomial with fmaf, and a float active scalar returned through
// a typed hook (varargs would promote it). Reverse mode with float shadows, forward mode.
// Oracle: the same functions evaluated in double (derivatives analytic or by central
// differences in double), compared at float tolerance; forward vs reverse identity in
// float arithmetic (relative 1e-5).
#include "fz_test.h"

extern float __enzyme_autodiff_fr(void *, int, const float *, float *, int, float, int, int);
extern double __enzyme_fwddiff(void *, ...);
// forward: (f, enzyme_dup, p, tp, th, tangent of th, enzyme_const, n)
extern float __enzyme_fwddiff_fr(void *, int, const float *, float *, float, float, int, int);

enum { K = 6, NP = 4 };

// cross-entropy of softmax(z) against class c, z in float, lse in double.
double xent(const float *z, int c, int k) {
  float m = z[0];
  for (int i = 1; i < k; i++) m = fmaxf(m, z[i]);
  double s = 0;
  for (int i = 0; i < k; i++) s += (double)expf(z[i] - m);
  return log(s) + m - (double)z[c];
}

// rotate points by angle th (float), squared distance to targets summed in double.
float rot_err(const float *pts, float th, int n) {
  float c = cosf(th), s = sinf(th);
  double e = 0;
  for (int i = 0; i < n; i++) {
    float x = pts[2 * i], y = pts[2 * i + 1];
    float rx = c * x - s * y, ry = s * x + c * y;
    float tx = 0.5f * i, ty = 1.0f - 0.25f * i;
    e += (double)((rx - tx) * (rx - tx)) + (double)((ry - ty) * (ry - ty));
  }
  return (float)e;
}

float horner(const float *a, float t, int n) {
  float r = a[n - 1];
  for (int i = n - 2; i >= 0; i--) r = fmaf(r, t, a[i]);
  return r;
}

int main(void) {
  fz_seed(1291);
  float z[K], dz[K] = {0};
  fz_fillf(z, K, -2, 2);
  __enzyme_autodiff((void *)xent, enzyme_dup, z, dz, enzyme_const, 2, enzyme_const, K);
  double m = z[0], s = 0;
  for (int i = 1; i < K; i++) m = fmax(m, z[i]);
  for (int i = 0; i < K; i++) s += exp(z[i] - m);
  char nm[48];
  for (int i = 0; i < K; i++) {
    double want = exp(z[i] - m) / s - (i == 2);
    snprintf(nm, sizeof nm, "xent d z[%d] = softmax - onehot", i);
    fz_check(nm, dz[i], want, 2e-6);
  }
  float vz[K];
  fz_fillf(vz, K, -1, 1);
  double jv = __enzyme_fwddiff((void *)xent, enzyme_dup, z, vz, enzyme_const, 2, enzyme_const, K);
  double vj = 0;
  for (int i = 0; i < K; i++) vj += (double)vz[i] * dz[i];
  fz_check("xent <J v, 1> = <v, J^T 1>", jv, vj, 1e-5);
  // rotation: float active scalar th through a typed hook, points dup
  float pts[2 * NP], dpts[2 * NP] = {0}, th = 0.6f;
  fz_fillf(pts, 2 * NP, -1, 1);
  float dth = __enzyme_autodiff_fr((void *)rot_err, enzyme_dup, pts, dpts, enzyme_out, th,
                                   enzyme_const, NP);
  double c = cos(th), sn = sin(th), want_th = 0;
  for (int i = 0; i < NP; i++) {
    double x = pts[2 * i], y = pts[2 * i + 1];
    double rx = c * x - sn * y, ry = sn * x + c * y, tx = 0.5 * i, ty = 1.0 - 0.25 * i;
    double drx = -sn * x - c * y, dry = c * x - sn * y;
    want_th += 2 * (rx - tx) * drx + 2 * (ry - ty) * dry;
    double wx = 2 * (rx - tx) * c + 2 * (ry - ty) * sn;
    double wy = -2 * (rx - tx) * sn + 2 * (ry - ty) * c;
    snprintf(nm, sizeof nm, "rot d x[%d]", i);
    fz_check(nm, dpts[2 * i], wx, 2e-5);
    snprintf(nm, sizeof nm, "rot d y[%d]", i);
    fz_check(nm, dpts[2 * i + 1], wy, 2e-5);
  }
  fz_check("rot d th", dth, want_th, 2e-5);
  float vp[2 * NP];
  fz_fillf(vp, 2 * NP, -1, 1);
  float jr = __enzyme_fwddiff_fr((void *)rot_err, enzyme_dup, pts, vp, th, 0.5f, enzyme_const, NP);
  double vjr = 0.5 * dth;
  for (int i = 0; i < 2 * NP; i++) vjr += (double)vp[i] * dpts[i];
  fz_check("rot <J v, 1> = <v, J^T 1>", jr, vjr, 2e-5);
  // horner with fmaf: d/dt and d/da
  float a[5], da[5] = {0}, t = 0.7f;
  fz_fillf(a, 5, -1, 1);
  float dt = __enzyme_autodiff_fr((void *)horner, enzyme_dup, a, da, enzyme_out, t,
                                  enzyme_const, 5);
  double wdt = 0;
  for (int i = 1; i < 5; i++) wdt += i * a[i] * pow(t, i - 1);
  fz_check("horner d t", dt, wdt, 2e-6);
  for (int i = 0; i < 5; i++) {
    snprintf(nm, sizeof nm, "horner d a[%d]", i);
    fz_check(nm, da[i], pow(t, i), 2e-6);
  }
  return fz_finish();
}
