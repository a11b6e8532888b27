// OPT: O0 O1 O2 O3
// enzyme_interleave as MFEM writes its calls: one activity marker, every argument,
// then enzyme_interleave, then the shadows of the duplicated arguments in the same
// order, then whole-call markers (enzyme_runtime_activity). An unmarked argument takes
// the activity of the one before it. Forward mode (pointers and float scalars with
// tangents), reverse mode (enzyme_const then sticky enzyme_dup, a sticky enzyme_out),
// vector forward mode (two shadows per argument) and dupnoneed. Oracle: analytic.
#include "fz_test.h"

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out, enzyme_width,
    enzyme_interleave, enzyme_runtime_activity;
extern void __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff_d(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
typedef struct { double a, b; } two;
extern two __enzyme_autodiff_2(void *, ...);
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  double k; /* stiffness */
  int n;
} qdata;

/* a quadrature-point kernel: flux = k * |u|^2 * grad u, out written */
static void kernel(const qdata *q, const double *u, const double *gu, double *flux) {
  double u2 = u[0] * u[0] + u[1] * u[1];
  for (int i = 0; i < q->n; i++) flux[i] = q->k * u2 * gu[i];
}

double energy(double s, double t, const double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += s * x[i] * x[i] + t * sin(x[i]);
  return e;
}

int main(void) {
  qdata q = {1.5, 3};
  double u[2] = {0.6, -0.8}, gu[3] = {0.1, 0.2, -0.3}, flux[3];
  double du[2] = {1.0, 0.5}, dgu[3] = {-0.2, 0.4, 0.7}, dflux[3] = {0};
  /* forward, MFEM style: enzyme_const before the data, enzyme_dup once for three */
  __enzyme_fwddiff((void *)kernel, enzyme_const, &q, enzyme_dup, u, gu, flux, enzyme_interleave,
                   du, dgu, dflux, enzyme_runtime_activity);
  double u2 = 0.36 + 0.64, du2 = 2 * (0.6 * 1.0 + -0.8 * 0.5);
  for (int i = 0; i < 3; i++) {
    char b[48];
    snprintf(b, sizeof b, "fwd flux[%d]", i);
    fz_check(b, flux[i], q.k * u2 * gu[i], 1e-14);
    snprintf(b, sizeof b, "fwd dflux[%d]", i);
    fz_check(b, dflux[i], q.k * (du2 * gu[i] + u2 * dgu[i]), 1e-14);
  }
  /* reverse: const first, then sticky dup, dflux seeded */
  double bu[2] = {0}, bgu[3] = {0}, bflux[3] = {1.0, -2.0, 0.5};
  __enzyme_autodiff_void((void *)kernel, enzyme_const, &q, enzyme_dup, u, gu, flux, enzyme_interleave,
                    bu, bgu, bflux);
  double wsum = 0;
  double seed[3] = {1.0, -2.0, 0.5};
  for (int i = 0; i < 3; i++) wsum += seed[i] * gu[i];
  fz_check("rev bu[0]", bu[0], q.k * 2 * u[0] * wsum, 1e-14);
  fz_check("rev bu[1]", bu[1], q.k * 2 * u[1] * wsum, 1e-14);
  for (int i = 0; i < 3; i++) {
    char b[48];
    snprintf(b, sizeof b, "rev bgu[%d]", i);
    fz_check(b, bgu[i], q.k * u2 * seed[i], 1e-14);
  }
  /* reverse with a sticky enzyme_out for two scalars, then const, dup */
  double x[4] = {0.3, -1.1, 2.0, 0.7}, bx[4] = {0};
  double s = 0.8, t = -0.4;
  two g = __enzyme_autodiff_2((void *)energy, enzyme_out, s, t, enzyme_dup, x, enzyme_const, 4,
                              enzyme_interleave, bx);
  double sx2 = 0, ssin = 0;
  for (int i = 0; i < 4; i++) sx2 += x[i] * x[i], ssin += sin(x[i]);
  fz_check("rev d/ds", g.a, sx2, 1e-13);
  fz_check("rev d/dt", g.b, ssin, 1e-13);
  for (int i = 0; i < 4; i++) {
    char b[48];
    snprintf(b, sizeof b, "rev bx[%d]", i);
    fz_check(b, bx[i], 2 * s * x[i] + t * cos(x[i]), 1e-13);
  }
  /* forward with float scalars: their tangents come after the marker too */
  double dx[4] = {1, 0, 0, 2};
  double dt = __enzyme_fwddiff_d((void *)energy, enzyme_dup, s, t, x, enzyme_const, 4,
                                 enzyme_interleave, 0.5, -1.0, dx);
  double want = 0.5 * sx2 - 1.0 * ssin;
  for (int i = 0; i < 4; i++) want += dx[i] * (2 * s * x[i] + t * cos(x[i]));
  fz_check("fwd scalars and pointer", dt, want, 1e-13);
  /* vector forward: two shadows per argument, lanes in order */
  double e0[4] = {1, 0, 0, 0}, e3[4] = {0, 0, 0, 1};
  v2 r = __enzyme_fwddiff_v2((void *)energy, enzyme_width, 2, enzyme_const, s, t, enzyme_dup, x,
                             enzyme_const, 4, enzyme_interleave, e0, e3);
  fz_check("vec lane 0", r.d[0], 2 * s * x[0] + t * cos(x[0]), 1e-13);
  fz_check("vec lane 1", r.d[1], 2 * s * x[3] + t * cos(x[3]), 1e-13);
  /* dupnoneed is sticky too */
  double f2[3] = {0}, bu2[2] = {0}, bgu2[3] = {0}, bf2[3] = {1, 1, 1};
  __enzyme_autodiff_void((void *)kernel, enzyme_const, &q, enzyme_dup, u, gu, enzyme_dupnoneed, f2,
                    enzyme_interleave, bu2, bgu2, bf2);
  double gsum = gu[0] + gu[1] + gu[2];
  fz_check("dupnoneed bu2[0]", bu2[0], q.k * 2 * u[0] * gsum, 1e-14);
  fz_check("dupnoneed bgu2[2]", bgu2[2], q.k * u2, 1e-14);
  return fz_finish();
}
