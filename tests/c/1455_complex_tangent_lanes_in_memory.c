// OPT: O0 O2
// Vector forward mode of a function of a `double _Complex` (and of a struct of two
// doubles) with enough lanes that the x86-64 ABI runs out of its eight SSE registers
// for the hook call: with `enzyme_width, 4` the fourth tangent, with `enzyme_width, 6`
// the fourth to sixth, are passed in memory (`ptr byval({ double, double })`). Each lane
// is loaded and differentiated like the others (alloc40; before, a clear error: "its
// tangent for lane 4 must be a value of the same type (a tangent passed in memory ... is
// not supported)"). Oracles: the analytic directional derivative of every lane, central
// finite differences along each direction, and width-1 forward mode lane by lane.
#include "fz_test.h"
#include <complex.h>

extern int enzyme_width;
typedef struct {
  double _Complex l[4];
} L4;
typedef struct {
  double _Complex l[6];
} L6;
typedef struct {
  double x, y;
} pt;
typedef struct {
  double l[6];
} R6;
extern L4 __enzyme_fwddiff_l4(void *, ...);
extern L6 __enzyme_fwddiff_l6(void *, ...);
extern R6 __enzyme_fwddiff_r6(void *, ...);
extern double _Complex __enzyme_fwddiff_c(void *, ...);
extern double __enzyme_fwddiff_d(void *, ...);

/* Not holomorphic: z^3 plus a real part times the sine of the imaginary part. */
__attribute__((noinline)) double _Complex f(double _Complex z) {
  return z * z * z + creal(z) * sin(cimag(z));
}

static double _Complex df(double _Complex z, double _Complex dz) {
  double re = creal(z), im = cimag(z);
  return 3 * z * z * dz + creal(dz) * sin(im) + re * cos(im) * cimag(dz);
}

/* A point by value: a real result. */
__attribute__((noinline)) double g(pt p) { return p.x * exp(p.y) + p.y * p.y * p.x; }

static double dg(pt p, pt d) {
  return d.x * (exp(p.y) + p.y * p.y) + d.y * (p.x * exp(p.y) + 2 * p.y * p.x);
}

static double _Complex fd_f(double _Complex z, double _Complex dz) {
  double h = 1e-6;
  return (f(z + h * dz) - f(z - h * dz)) / (2 * h);
}

static void check_lane(const char *what, double _Complex got, double _Complex z,
                       double _Complex dz) {
  double _Complex want = df(z, dz), fd = fd_f(z, dz);
  double _Complex one = __enzyme_fwddiff_c((void *)f, z, dz);
  fz_check(what, creal(got), creal(want), 1e-12);
  fz_check(what, cimag(got), cimag(want), 1e-12);
  fz_check("vs FD (re)", creal(got), creal(fd), 1e-6);
  fz_check("vs FD (im)", cimag(got), cimag(fd), 1e-6);
  fz_check("vs width 1 (re)", creal(got), creal(one), 1e-12);
  fz_check("vs width 1 (im)", cimag(got), cimag(one), 1e-12);
}

int main(void) {
  fz_seed(1455);
  double _Complex z = fz_uniform(-1, 1) + fz_uniform(-1, 1) * I, d[6];
  for (int k = 0; k < 6; k++) d[k] = fz_uniform(-1, 1) + fz_uniform(-1, 1) * I;

  L4 r4 = __enzyme_fwddiff_l4((void *)f, enzyme_width, 4, z, d[0], d[1], d[2], d[3]);
  for (int k = 0; k < 4; k++) check_lane("width 4 lane (analytic)", r4.l[k], z, d[k]);

  L6 r6 = __enzyme_fwddiff_l6((void *)f, enzyme_width, 6, z, d[0], d[1], d[2], d[3], d[4],
                              d[5]);
  for (int k = 0; k < 6; k++) check_lane("width 6 lane (analytic)", r6.l[k], z, d[k]);

  pt p = {fz_uniform(-1, 1), fz_uniform(-1, 1)}, dp[6];
  for (int k = 0; k < 6; k++) dp[k] = (pt){fz_uniform(-1, 1), fz_uniform(-1, 1)};
  R6 s = __enzyme_fwddiff_r6((void *)g, enzyme_width, 6, p, dp[0], dp[1], dp[2], dp[3], dp[4],
                             dp[5]);
  for (int k = 0; k < 6; k++) {
    fz_check("struct lane (analytic)", s.l[k], dg(p, dp[k]), 1e-12);
    fz_check("struct lane vs width 1", s.l[k], __enzyme_fwddiff_d((void *)g, p, dp[k]), 1e-12);
  }
  return fz_finish();
}
