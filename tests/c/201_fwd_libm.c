// OPT: O0 O2 O3
// Forward mode through libm: sin, cos, exp, log, pow, sqrt, tanh, atan2,
// fmax, hypot, cbrt, expm1/log1p, with analytic derivatives and finite
// differences; dot-product identity against __enzyme_autodiff on each.
#include "fz_test.h"
#include "fz_modes.h"

double f_trig(double x) { return sin(3.0 * x) * cos(x) + tan(0.3 * x); }
double f_exp_log(double x) { return exp(-0.5 * x * x) + log(1.0 + x * x) + expm1(0.1 * x) + log1p(x * x); }
double f_pow(double x) { return pow(x, 2.7) + pow(1.5, x) + sqrt(x) + cbrt(x); }
double f_hyp(double x) { return tanh(2.0 * x) + sinh(0.5 * x) * cosh(0.25 * x); }
double f_atan2(double y, double x) { return atan2(y, x) + hypot(x, y); }
double f_fmax(double x, double y) { return fmax(x * x, y) + fmin(x, 0.5 * y); }

static double d_trig(double x) {
  double c = cos(0.3 * x);
  return 3.0 * cos(3.0 * x) * cos(x) - sin(3.0 * x) * sin(x) + 0.3 / (c * c);
}
static double d_exp_log(double x) {
  return -x * exp(-0.5 * x * x) + 2.0 * x / (1.0 + x * x) + 0.1 * exp(0.1 * x) + 2.0 * x / (1.0 + x * x);
}
static double d_pow(double x) {
  return 2.7 * pow(x, 1.7) + log(1.5) * pow(1.5, x) + 0.5 / sqrt(x) + 1.0 / (3.0 * cbrt(x) * cbrt(x));
}
static double d_hyp(double x) {
  double t = tanh(2.0 * x);
  return 2.0 * (1.0 - t * t) + 0.5 * cosh(0.5 * x) * cosh(0.25 * x) + 0.25 * sinh(0.5 * x) * sinh(0.25 * x);
}

static double cy, cx; /* for FD of the two-argument functions */
static double e_atan2_y(double y) { return f_atan2(y, cx); }
static double e_atan2_x(double x) { return f_atan2(cy, x); }
static double e_fmax_x(double x) { return f_fmax(x, cy); }

/* a macro, not a function: the hooks need the function itself, not a pointer variable */
#define ONE(name, f, df, x0)                                                      \
  do {                                                                            \
    char buf[64];                                                                 \
    double xx = (x0), v = fz_uniform(0.5, 1.5), w = fz_uniform(-1.0, 1.0);         \
    double jv = __enzyme_fwddiff((void *)f, xx, v);                               \
    snprintf(buf, sizeof buf, "%s'(%.3f)*v", name, xx);                           \
    fz_mcheck2(buf, jv, v * df(xx), 1e-10, v * fz_fd1(f, xx), 1e-6);               \
    double jtw = w * __enzyme_autodiff((void *)f, xx);                            \
    fz_check("rev vs analytic", jtw, w * df(xx), 1e-10);                          \
    fz_mcheck_dot(name, &v, &jtw, 1, &jv, &w, 1, 1e-10);                           \
  } while (0)

int main(void) {
  fz_seed(201);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(0.2, 2.5);
    ONE("trig", f_trig, d_trig, x);
    ONE("exp_log", f_exp_log, d_exp_log, x - 1.0);
    ONE("pow", f_pow, d_pow, x);
    ONE("hyp", f_hyp, d_hyp, x - 1.2);

    /* two arguments: tangent in y only (x const) and in x only (y const) */
    cy = fz_uniform(-2.0, 2.0);
    cx = fz_uniform(0.3, 2.0);
    double r2 = cx * cx + cy * cy, hy = sqrt(r2);
    double d = __enzyme_fwddiff((void *)f_atan2, enzyme_dup, cy, 1.0, enzyme_const, cx);
    fz_mcheck2("atan2+hypot d/dy", d, cx / r2 + cy / hy, 1e-10, fz_fd1(e_atan2_y, cy), 1e-6);
    d = __enzyme_fwddiff((void *)f_atan2, enzyme_const, cy, enzyme_dup, cx, 1.0);
    fz_mcheck2("atan2+hypot d/dx", d, -cy / r2 + cx / hy, 1e-10, fz_fd1(e_atan2_x, cx), 1e-6);
    /* both tangents: the sum */
    d = __enzyme_fwddiff((void *)f_atan2, cy, 2.0, cx, -1.0);
    fz_mcheck("atan2+hypot (2, -1) direction", d, 2.0 * (cx / r2 + cy / hy) - (-cy / r2 + cx / hy), 1e-10);

    /* fmax/fmin away from the switch points: pick y so that branches are clear */
    double xm = fz_uniform(0.5, 1.5);
    cy = (t & 1) ? xm * xm + 1.0 : xm * xm - 1.0; /* fmax picks y or x^2 */
    double want = ((t & 1) ? 0.0 : 2.0 * xm) + (xm < 0.5 * cy ? 1.0 : 0.0);
    d = __enzyme_fwddiff((void *)f_fmax, enzyme_dup, xm, 1.0, enzyme_const, cy);
    fz_mcheck2("fmax/fmin d/dx", d, want, 0.0, fz_fd1(e_fmax_x, xm), 1e-6);
  }
  return fz_finish();
}
