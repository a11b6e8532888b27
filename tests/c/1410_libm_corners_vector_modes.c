// OPT: O0 O2
// C library functions with kinks, integer parts and exponent splits in one model, in
// vector modes: `atan2`, `hypot`, `fmod`, `remainder`, `ldexp`, `frexp`'s mantissa,
// `modf`'s fraction, `nextafter`, `fdim`, `fmax`, `round`/`trunc`/`floor`/`ceil`
// (derivative zero almost everywhere, as Enzyme defines them), `copysign`, `cbrt`,
// `expm1`, `log1p`. Vector reverse (`enzyme_width, 3`: the Jacobian's three rows at once)
// against vector forward (`enzyme_width, 2`) by the dot-product identity, scalar reverse
// per row, and central differences away from the kinks.
#include "fz_test.h"
#include "fz_modes.h"

#define N 4
#define M 3

void model(const double *x, double *out) {
  double a = atan2(x[0], x[1] + 2.5) + hypot(x[2], x[3] + 0.2);
  double b = fmod(3.7 * x[0] + 10, 1.3) + remainder(2.1 * x[1] + 5, 0.9);
  int e;
  double m = frexp(4.0 + x[2] * x[3], &e); /* mantissa in [0.5, 1) */
  double ip, fr = modf(5.5 + 2 * x[3], &ip);
  double c = ldexp(x[1] * x[2], 3) + m * e + fr * ip;
  double d = nextafter(x[0] * x[1], 1.0) + fdim(x[2], -0.1 * x[3]) + fmax(x[0], x[3]);
  double z = round(4 * x[0]) + trunc(3 * x[1]) + floor(2 * x[2]) + ceil(x[3]); /* a.e. 0 */
  double g = copysign(x[1] * x[1] + 0.3, x[0]) + cbrt(2 + x[2]) + expm1(0.5 * x[3]) +
             log1p(x[0] * x[0]);
  out[0] = a * b + c + 0.1 * z * d;
  out[1] = sin(c) * d + g * z;
  out[2] = g * g - a + b * d + 0.01 * z;
}

static double X[N], SEED[M];
static double seeded(void *c) {
  (void)c;
  double o[M];
  model(X, o);
  return fz_dot(o, SEED, M);
}

int main(void) {
  const double points[2][N] = {{0.31, -0.42, 0.57, 0.23}, {-0.61, 0.37, -0.18, 0.71}};
  for (int p = 0; p < 2; p++) {
    memcpy(X, points[p], sizeof X);
    double o[M], e[3][M] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, J[3][N] = {{0}};
    __enzyme_autodiff_w((void *)model, enzyme_width, 3, enzyme_dup, X, J[0], J[1], J[2],
                        enzyme_dup, o, e[0], e[1], e[2]);
    for (int r = 0; r < M; r++) {
      double sc[N] = {0}, os[M], s[M] = {0};
      s[r] = 1;
      memcpy(SEED, s, sizeof SEED);
      __enzyme_autodiff((void *)model, enzyme_dup, X, sc, enzyme_dup, os, s);
      for (int i = 0; i < N; i++) {
        char b[64];
        snprintf(b, sizeof b, "point %d J[%d][%d]", p, r, i);
        fz_mcheck2(b, J[r][i], sc[i], 1e-14, fz_fd_ptr(seeded, NULL, &X[i]), 1e-6);
      }
    }
    /* vector forward along two directions: J v = rows . v */
    double v[2][N] = {{1, -0.5, 0.25, 2}, {-1, 0.3, 0.7, 0.1}}, t0[M] = {0}, t1[M] = {0};
    __enzyme_fwddiff_void((void *)model, enzyme_width, 2, enzyme_dup, X, v[0], v[1], enzyme_dup, o,
                          t0, t1);
    double *t[2] = {t0, t1};
    for (int l = 0; l < 2; l++)
      for (int r = 0; r < M; r++)
        fz_mcheck("forward lane = J row . v", t[l][r], fz_dot(J[r], v[l], N), 1e-13);
  }
  return fz_finish();
}
