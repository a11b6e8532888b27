// OPT: O0 O1 O2 O3
// Math functions with two results or an integer/pointer argument that had no derivative
// before libm10: modf/modff (clang's `{T, T} @llvm.modf` at every -O level, vectorized
// `<2 x double>` in loops), GNU sincos/sincosf (library calls writing through two pointers
// here; `@llvm.sincos` under -ffast-math: program 659 is this file with that flag),
// nextafter (d/dx 1, d/dy 0), logb (0), remquo (as remainder, the quotient bits written
// to an int), jn/yn (integer order: (J(n-1) - J(n+1)) / 2). Each derivative against a
// hand-written formula and central finite differences; forward mode against reverse mode;
// arrays through enzyme_dup (the shadows of sincos's outputs written in forward mode and
// read in reverse mode), float variants, forward mode at width 2, second derivatives
// (forward over reverse), and modf's and sincos's
// values as the derivative computes them bit for bit equal to the library's (signed zeros,
// infinities, NaN).
#define _GNU_SOURCE
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);
extern int enzyme_width;

double f_modf(double x) {
  double ip;
  double fr = modf(3.0 * x, &ip);
  return fr * fr + ip * x;
}
double f_sincos(double x) {
  double s, c;
  sincos(2.0 * x, &s, &c);
  return s * s * c + 3.0 * c;
}
double f_next(double x) { return nextafter(x * x, 5.0) + nextafter(2.0, x) + logb(x + 7.0) * x; }
double f_remquo(double x) {
  int q;
  double r = remquo(7.0 * x, 1.3, &q);
  return r * r + (q & 1);
}
double f_bessel(double x) { return jn(2, x) + 3.0 * jn(3, 2.0 * x) + yn(2, x + 1.0) - yn(4, x + 2.0); }
float g_float(float x) {
  float s, c, ip;
  sincosf(x, &s, &c);
  int q;
  return s * c + modff(2.5f * x, &ip) + nextafterf(x, 0.0f) + jnf(2, x) + ynf(2, x + 1.0f) +
         remquof(3.0f * x, 0.7f, &q) + logbf(x + 3.0f);
}

/* first derivatives, differentiated again (forward over reverse): the split parts of the
   generated code are split again */
double d_modf(double x) { return __enzyme_autodiff((void *)f_modf, x); }
double d_sincos(double x) { return __enzyme_autodiff((void *)f_sincos, x); }
double d_bessel(double x) { return __enzyme_autodiff((void *)f_bessel, x); }

/* modf and sincos over arrays: the loops vectorize at -O2/-O3 (`llvm.modf.v2f64`) */
#define N 37
void arr(const double *a, double *out) {
  double acc = 0.0;
  for (int i = 0; i < N; i++) {
    double ip, s, c;
    double fr = modf(a[i] * 2.5, &ip);
    sincos(a[i], &s, &c);
    acc += fr * s + ip * c;
  }
  *out = acc;
}

/* sincos writing straight into the caller's arrays: the derivative writes the shadows of
   s[] and c[] (forward mode) and reads and zeroes them (reverse mode) */
void sc_out(const double *x, double *s, double *c) {
  for (int i = 0; i < 4; i++) sincos(x[i] * x[i], &s[i], &c[i]);
}

/* every function above in one pointer-argument function, for forward mode at width 2 */
void mixed(const double *x, double *o) {
  *o = f_modf(x[0]) + f_sincos(x[1]) + f_next(x[0]) + f_remquo(x[1]) + f_bessel(x[0] + 1.0);
}

/* modf's and sincos's values where the derivative computes them (forward mode stores the
   primal results too): bit for bit the library's, signed zeros and infinities included */
void parts(double x, double *o) {
  double s, c;
  o[0] = modf(x, &o[1]);
  sincos(x, &s, &c);
  o[2] = s;
  o[3] = c;
}

double jn_d(int n, double x) { return 0.5 * (jn(n - 1, x) - jn(n + 1, x)); }
double yn_d(int n, double x) { return 0.5 * (yn(n - 1, x) - yn(n + 1, x)); }

int main(void) {
  double xs[4] = {0.37, 0.81, 1.53, -0.62};
  for (int k = 0; k < 4; k++) {
    double x = xs[k];
#define T(fn, tol) fz_check(#fn " fd", __enzyme_autodiff((void *)fn, x), fz_fd1(fn, x), tol); \
    fz_check(#fn " fwd vs rev", __enzyme_fwddiff((void *)fn, x, 1.0), __enzyme_autodiff((void *)fn, x), 1e-13)
    T(f_modf, 1e-6); T(f_sincos, 1e-6); T(f_next, 1e-6); T(f_remquo, 1e-6);
    double ip, fr = modf(3.0 * x, &ip);
    fz_check("modf analytic", __enzyme_autodiff((void *)f_modf, x), 6.0 * fr + ip, 1e-12);
    double s = sin(2 * x), c = cos(2 * x);
    fz_check("sincos analytic", __enzyme_autodiff((void *)f_sincos, x),
             2.0 * (2 * s * c * c - s * s * s) - 6.0 * s, 1e-12);
    fz_check("nextafter/logb analytic", __enzyme_autodiff((void *)f_next, x),
             2.0 * x + logb(x + 7.0), 1e-12);
    int q;
    double r = remquo(7.0 * x, 1.3, &q);
    fz_check("remquo analytic", __enzyme_autodiff((void *)f_remquo, x), 14.0 * r, 1e-12);
    fz_check("modf second derivative (fwd over rev)", __enzyme_fwddiff((void *)d_modf, x, 1.0),
             18.0, 1e-12);
    fz_check("sincos second derivative (fwd over rev) vs fd",
             __enzyme_fwddiff((void *)d_sincos, x, 1.0), fz_fd1(d_sincos, x), 1e-6);
    if (x > 0) {
      T(f_bessel, 1e-6);
      fz_check("jn/yn second derivative (fwd over rev) vs fd",
               __enzyme_fwddiff((void *)d_bessel, x, 1.0), fz_fd1(d_bessel, x), 1e-6);
      fz_check("bessel analytic", __enzyme_autodiff((void *)f_bessel, x),
               jn_d(2, x) + 6.0 * jn_d(3, 2.0 * x) + yn_d(2, x + 1.0) - yn_d(4, x + 2.0), 1e-12);
      float xf = (float)x;
      double xd = xf;
      float gf = __enzyme_autodiff_f((void *)g_float, xf);
      double want = cos(2 * xd) + 2.5 + 1.0 + jn_d(2, xd) + yn_d(2, xd + 1.0) + 3.0;
      fz_check("float variants", gf, want, 2e-4);
    }
  }
  // arrays: gradient wrt a[] by reverse mode, directional derivative by forward mode
  double a[N], da[N], out = 0, dout = 1.0, want[N];
  for (int i = 0; i < N; i++) {
    a[i] = -2.0 + 0.11 * i + 0.013 * (i % 5);
    da[i] = 0.0;
    double ip, fr = modf(a[i] * 2.5, &ip);
    want[i] = 2.5 * sin(a[i]) + fr * cos(a[i]) - ip * sin(a[i]);
  }
  __enzyme_autodiff((void *)arr, enzyme_dup, a, da, enzyme_dup, &out, &dout);
  fz_check_arr("arr reverse", da, want, N, 1e-12);
  double dir[N], tout = 0, tdot = 0, dot = 0;
  for (int i = 0; i < N; i++) {
    dir[i] = 0.5 - 0.03 * i;
    dot += dir[i] * want[i];
  }
  __enzyme_fwddiff((void *)arr, enzyme_dup, a, dir, enzyme_dup, &tout, &tdot);
  fz_check("arr forward", tdot, dot, 1e-12);
  // forward mode at width 2 (enzyme_width): each lane against scalar forward mode
  double dir2[N], t0 = 0, t1 = 0, o2 = 0, want1 = 0;
  for (int i = 0; i < N; i++) dir2[i] = (i % 3) - 1.0;
  __enzyme_fwddiff((void *)arr, enzyme_width, 2, enzyme_dup, a, dir, dir2, enzyme_dup, &o2, &t0, &t1);
  __enzyme_fwddiff((void *)arr, enzyme_dup, a, dir2, enzyme_dup, &tout, &want1);
  fz_check("arr width 2 lane 0", t0, dot, 1e-12);
  fz_check("arr width 2 lane 1", t1, want1, 1e-12);
  double x2[2] = {0.43, 0.77}, e0[2] = {1, 0}, e1[2] = {0, 1}, m0 = 0, m1 = 0, mo = 0;
  __enzyme_fwddiff((void *)mixed, enzyme_width, 2, enzyme_dup, x2, e0, e1, enzyme_dup, &mo, &m0, &m1);
  double gx[2] = {0, 0};
  __enzyme_autodiff((void *)mixed, enzyme_dup, x2, gx, enzyme_dup, &mo, &(double){1.0});
  fz_check("mixed width 2 lane 0 vs reverse", m0, gx[0], 1e-12);
  fz_check("mixed width 2 lane 1 vs reverse", m1, gx[1], 1e-12);
  fz_check("mixed reverse vs fd", gx[0],
           (f_modf(0.43 + 1e-6) + f_next(0.43 + 1e-6) + f_bessel(1.43 + 1e-6) -
            f_modf(0.43 - 1e-6) - f_next(0.43 - 1e-6) - f_bessel(1.43 - 1e-6)) / 2e-6, 1e-6);
  double xo[4] = {0.2, -0.7, 1.1, 0.45}, so[4], co[4], dso[4], dco[4], gxo[4] = {0};
  double ds_seed[4] = {1.0, 2.0, -1.0, 0.5}, dc_seed[4] = {0.3, -2.0, 1.5, 1.0}, w_sc[4], w_tan[4];
  double ones[4] = {1, 1, 1, 1};
  for (int i = 0; i < 4; i++) {
    double u = xo[i] * xo[i];
    w_sc[i] = 2.0 * xo[i] * (ds_seed[i] * cos(u) - dc_seed[i] * sin(u));
    w_tan[i] = 2.0 * xo[i] * cos(u);
  }
  __enzyme_autodiff((void *)sc_out, enzyme_dup, xo, gxo, enzyme_dup, so, ds_seed, enzyme_dup, co,
                    dc_seed);
  fz_check_arr("sincos into arrays, reverse", gxo, w_sc, 4, 1e-12);
  fz_check("sincos shadows read and zeroed", ds_seed[0] + ds_seed[3] + dc_seed[1], 0.0, 0.0);
  __enzyme_fwddiff((void *)sc_out, enzyme_dup, xo, ones, enzyme_dup, so, dso, enzyme_dup, co, dco);
  fz_check_arr("sincos into arrays, forward (shadow of s)", dso, w_tan, 4, 1e-12);
  fz_check("sincos into arrays, forward (shadow of c)", dco[2], -2.0 * xo[2] * sin(xo[2] * xo[2]), 1e-12);
#ifndef __FAST_MATH__
  double special[9] = {-0.0, 0.0, -3.0, 4.0, -2.75, 1e300, 0.3, INFINITY, -INFINITY};
  int n_special = 9;
#else /* infinities and NaN are undefined behaviour under -ffast-math */
  double special[7] = {-0.0, 0.0, -3.0, 4.0, -2.75, 1e300, 0.3};
  int n_special = 7;
#endif
  for (int k = 0; k < n_special; k++) {
    double o[4], d[4], w[4];
    parts(special[k], w);
    __enzyme_fwddiff((void *)parts, special[k], 1.0, enzyme_dup, o, d);
    char what[64];
    snprintf(what, sizeof what, "modf/sincos values at %g bit for bit", special[k]);
    fz_check(what, memcmp(o, w, sizeof o) == 0, 1.0, 0.0);
    if (k < 7)
      fz_check("modf parts' tangents 1 and 0", d[0] + 10.0 * d[1], 1.0, 0.0);
  }
#ifndef __FAST_MATH__
  double nan_o[4], nan_d[4];
  __enzyme_fwddiff((void *)parts, NAN, 1.0, enzyme_dup, nan_o, nan_d);
  fz_check("modf of NaN", isnan(nan_o[0]) && isnan(nan_o[1]), 1.0, 0.0);
#endif
  return fz_finish();
}
