// OPT: O0 O1 O2 O3
// Enzyme's activity options in corners its users reach for: `enzyme_const` on a pointer
// the function writes and never reads back (the writes happen, nothing is accumulated for
// it; read back it is tests/errors/const_scratch_read_back_O0.c), `enzyme_dupnoneed`
// on an output buffer of a function that also returns a double, `enzyme_out` of a
// struct passed by value (the adjoint comes back in the returned struct), a hook returning
// a struct of two doubles for two active scalars, `enzyme_dup` and `enzyme_const` mixed with
// active scalars in every position. Oracles: analytic formulas and finite differences.
#include "fz_test.h"

typedef struct { double a, b; } pair2;
extern pair2 __enzyme_autodiff_p2(void *, ...);
extern double __enzyme_autodiff_d(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

/* writes scratch (const) and out (dup), returns a value as well */
double write_both(const double *x, double *scratch, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double q = x[i] * x[i];
    scratch[i] = q;
    out[i] = sin(x[i]) * q;
    s += q * x[i];
  }
  return s;
}

/* struct by value, active */
double energy(pair2 p, double k) { return k * (p.a * p.a * p.b + exp(p.b)); }

/* two active scalars, returns their derivatives */
double two(double u, double v) { return u * u * v + sin(u * v); }

/* dupnoneed output, returned value */
double fill_ret(const double *x, double *y, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) { y[i] = x[i] * x[(i + 1) % n]; t += y[i]; }
  return t * t;
}

/* active scalar between pointers */
void mixed(double *out, double c, const double *x, double w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * c + w * x[i] * x[i];
  *out = s * c;
}

static double g_x[4], g_s[4];
static double eval_write_both(void *ctx) {
  (void)ctx;
  double out[4], scr[4];
  double wsum = 0;
  double r = write_both(g_x, scr, out, 4);
  for (int i = 0; i < 4; i++) wsum += (i + 1) * out[i];
  return r + wsum;
}

int main(void) {
  /* 1. enzyme_const scratch, dup out with seed, active return */
  double x[4] = {0.3, -0.7, 1.1, 0.5}, dx[4] = {0};
  double scratch[4] = {0}, out[4], dout[4] = {1, 2, 3, 4};
  double r = __enzyme_autodiff_d((void *)write_both, enzyme_dup, x, dx, enzyme_const, scratch,
                                 enzyme_dup, out, dout, enzyme_const, 4);
  (void)r;
  for (int i = 0; i < 4; i++) {
    fz_check("const scratch written", scratch[i], x[i] * x[i], 1e-14);
    double want = 3 * x[i] * x[i] + (i + 1) * (cos(x[i]) * x[i] * x[i] + sin(x[i]) * 2 * x[i]);
    fz_check("dup x with dup out", dx[i], want, 1e-10);
  }
  for (int i = 0; i < 4; i++) g_x[i] = x[i];
  double fd[4];
  fz_fd_grad(eval_write_both, NULL, g_x, 4, fd);
  fz_check_arr("write_both fd", dx, fd, 4, 1e-6);

  /* 2. enzyme_out of a struct by value */
  pair2 p = {0.8, -0.3};
  pair2 dp = __enzyme_autodiff_p2((void *)energy, enzyme_out, p, enzyme_const, 2.5);
  fz_check("struct out a", dp.a, 2.5 * 2 * p.a * p.b, 1e-12);
  fz_check("struct out b", dp.b, 2.5 * (p.a * p.a + exp(p.b)), 1e-12);

  /* 3. two active scalars -> struct of two doubles */
  double u = 0.9, v = -1.4;
  pair2 d2 = __enzyme_autodiff_p2((void *)two, u, v);
  fz_check("two du", d2.a, 2 * u * v + cos(u * v) * v, 1e-12);
  fz_check("two dv", d2.b, u * u + cos(u * v) * u, 1e-12);
  pair2 d2m = __enzyme_autodiff_p2((void *)two, enzyme_out, u, enzyme_out, v);
  fz_check("two du (markers)", d2m.a, d2.a, 1e-14);
  fz_check("two dv (markers)", d2m.b, d2.b, 1e-14);

  /* 4. dupnoneed output with a returned value */
  double y[3] = {0}, dy[3] = {0.5, -1.0, 2.0}, seed[3] = {0.5, -1.0, 2.0};
  double xs[3] = {1.2, -0.4, 0.7}, dxs[3] = {0};
  __enzyme_autodiff_d((void *)fill_ret, enzyme_dup, xs, dxs, enzyme_dupnoneed, y, dy,
                      enzyme_const, 3);
  {
    double t = 0;
    for (int i = 0; i < 3; i++) t += xs[i] * xs[(i + 1) % 3];
    for (int i = 0; i < 3; i++) {
      int ip = (i + 1) % 3, im = (i + 2) % 3;
      /* y_j = x_j x_{j+1}: x_i appears in y_i (times x_{i+1}) and y_{i-1} (times x_{i-1}) */
      double want = 2 * t * (xs[ip] + xs[im]) + seed[i] * xs[ip] + seed[im] * xs[im];
      fz_check("dupnoneed + return", dxs[i], want, 1e-12);
    }
  }

  /* 5. active scalars between pointers */
  double o = 0, dO = 1.0, xm[3] = {0.2, 0.4, -0.9}, dxm[3] = {0};
  pair2 dcw = __enzyme_autodiff_p2((void *)mixed, enzyme_dup, &o, &dO, 1.7, enzyme_dup, xm, dxm,
                                   0.6, enzyme_const, 3);
  {
    double c = 1.7, w = 0.6, sx = 0, sxx = 0;
    for (int i = 0; i < 3; i++) { sx += xm[i]; sxx += xm[i] * xm[i]; }
    fz_check("mixed dc", dcw.a, 2 * c * sx + w * sxx, 1e-12);
    fz_check("mixed dw", dcw.b, c * sxx, 1e-12);
    for (int i = 0; i < 3; i++) fz_check("mixed dx", dxm[i], c * (c + 2 * w * xm[i]), 1e-12);
  }
  return fz_finish();
}
