// OPT: O0 O1 O2 O3
// Complex numbers in every precision and in memory: an array of `double complex`
// passed enzyme_dup (its shadow an array of complex adjoints: d/d(re) in the real part,
// d/d(im) in the imaginary part), a struct holding a complex field, `float complex`
// arithmetic (`__mulsc3`/`__divsc3`) with cexpf/csqrtf/cabsf, and `long double complex`
// with cexpl/clogl/cabsl, each narrowed to a real objective.
// Oracle: central finite differences of every real and imaginary part (five-point for
// the float path, with a float tolerance) and forward mode against reverse.
#include <complex.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

typedef struct {
  double complex z;
  double w;
} weighted_z;

double complex_mem(const double complex *z, const weighted_z *s, int n) {
  double complex acc = 0;
  for (int i = 0; i < n; i++) acc += z[i] * z[(i + 1) % n] / (1.0 + z[i] * conj(z[i]));
  acc *= s->z;
  float complex zf = (float complex)z[0];
  float complex qf = cexpf(zf * 0.5f) / (1.0f + csqrtf(zf * zf + 2.0f));
  long double complex zl = (long double complex)z[1];
  long double complex ql = cexpl(zl) * clogl(zl + 3.0L);
  return cabs(acc) * s->w + (double)cabsf(qf) + (double)cabsl(ql) + creal(z[2] * z[3]);
}

static double complex g_z[N];
static weighted_z g_s;
static double eval(void *ctx) {
  (void)ctx;
  return complex_mem(g_z, &g_s, N);
}

int main(void) {
  fz_seed(1174);
  for (int i = 0; i < N; i++) g_z[i] = fz_uniform(-1, 1) + fz_uniform(-1, 1) * I;
  g_s.z = 0.7 - 0.4 * I;
  g_s.w = 1.3;
  double complex dz[N] = {0};
  weighted_z ds = {0, 0};
  __enzyme_autodiff((void *)complex_mem, enzyme_dup, g_z, dz, enzyme_dup, &g_s, &ds,
                    enzyme_const, N);
  char nm[48];
  for (int i = 0; i < N; i++) {
    double *parts = (double *)&g_z[i];
    /* z[0] goes through float arithmetic: a five-point difference and a looser tolerance */
    double tol = i == 0 ? 1e-4 : 1e-6;
    double fr = i == 0 ? fz_fd5_ptr(eval, NULL, &parts[0]) : fz_fd_ptr(eval, NULL, &parts[0]);
    double fi = i == 0 ? fz_fd5_ptr(eval, NULL, &parts[1]) : fz_fd_ptr(eval, NULL, &parts[1]);
    snprintf(nm, sizeof nm, "d/d re z[%d] vs FD", i);
    fz_check(nm, creal(dz[i]), fr, tol);
    snprintf(nm, sizeof nm, "d/d im z[%d] vs FD", i);
    fz_check(nm, cimag(dz[i]), fi, tol);
  }
  double *sp = (double *)&g_s.z;
  fz_check("d/d re s.z vs FD", creal(ds.z), fz_fd_ptr(eval, NULL, &sp[0]), 1e-6);
  fz_check("d/d im s.z vs FD", cimag(ds.z), fz_fd_ptr(eval, NULL, &sp[1]), 1e-6);
  fz_check("d/d s.w vs FD", ds.w, fz_fd_ptr(eval, NULL, &g_s.w), 1e-6);
  double complex tz[N] = {0};
  weighted_z ts = {0, 0};
  tz[1] = 1.0 + 0.5 * I;
  ts.w = 1.0;
  double t = __enzyme_fwddiff((void *)complex_mem, enzyme_dup, g_z, tz, enzyme_dup, &g_s, &ts,
                              enzyme_const, N);
  fz_check("forward = <grad, v>", t, creal(dz[1]) + 0.5 * cimag(dz[1]) + ds.w, 1e-9);
  return fz_finish();
}
