// OPT: O0 O1 O2 O3
// Typed hooks for the float types Enzyme users differentiate besides double: a `long
// double` (x86_fp80) function with active `long double` arguments whose adjoints come
// back in a struct of two `long double`s, its forward derivative returning `long
// double`, a `float` function of two active floats (adjoints in a struct of two floats),
// `float` arrays `enzyme_dup`'d with `sqrtf`/`expf`/`fmaxf`/`powf`/`tanhf`, and
// `std::frexp`'s C form `frexpl` next to `ldexpl`. Oracles: analytic derivatives (long
// double to 1e-15, float to 1e-5), finite differences of the float primal in double.
#include "fz_test.h"

typedef struct { long double a, b; } ld2;
typedef struct { float a, b; } f2;
extern ld2 __enzyme_autodiff_ld2(void *, ...);
extern long double __enzyme_fwddiff_ld(void *, ...);
extern f2 __enzyme_autodiff_f2(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

long double ld_fun(long double x, long double y) {
  int e;
  long double m = frexpl(x * y, &e);
  return sinl(x) * expl(y) + ldexpl(m * m, 2 * e) + logl(1.0L + x * x);
}

float f_fun(float u, float v) { return u * u * v + sinf(u * v) + sqrtf(1.0f + v * v); }

void f_arr(const float *x, float *out, int n) {
  float s = 0, mx = -1e30f;
  for (int i = 0; i < n; i++) {
    s += expf(-x[i] * x[i]) + powf(fabsf(x[i]) + 1.0f, 1.5f);
    mx = fmaxf(mx, tanhf(x[i]));
  }
  *out = sqrtf(s) + mx;
}

static float gx[5];
static double eval_arr(void *c) { (void)c; float o; f_arr(gx, &o, 5); return o; }

int main(void) {
  long double x = 0.7L, y = -0.4L;
  ld2 g = __enzyme_autodiff_ld2((void *)ld_fun, x, y);
  /* ldexp(m*m, 2e) = (xy)^2 */
  long double wx = cosl(x) * expl(y) + 2 * x * y * y + 2 * x / (1 + x * x);
  long double wy = sinl(x) * expl(y) + 2 * x * x * y;
  fz_check("long double d/dx", (double)g.a, (double)wx, 1e-15);
  fz_check("long double d/dy", (double)g.b, (double)wy, 1e-15);
  long double t = __enzyme_fwddiff_ld((void *)ld_fun, x, 0.5L, y, -2.0L);
  fz_check("long double forward = <grad, v>", (double)t, (double)(0.5L * wx - 2.0L * wy), 1e-15);

  float u = 0.6f, v = 1.3f;
  f2 h = __enzyme_autodiff_f2((void *)f_fun, u, v);
  double du = 2.0 * u * v + v * cos((double)u * v), dv = (double)u * u + u * cos((double)u * v) +
                                                        v / sqrt(1.0 + (double)v * v);
  fz_check("float d/du", h.a, du, 1e-5);
  fz_check("float d/dv", h.b, dv, 1e-5);

  float dx[5] = {0}, o = 0, d_o = 1.0f;
  gx[0] = 0.3f; gx[1] = -0.8f; gx[2] = 1.1f; gx[3] = 0.05f; gx[4] = -1.4f;
  __enzyme_autodiff_v((void *)f_arr, enzyme_dup, gx, dx, enzyme_dup, &o, &d_o, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    float keep = gx[i], hh = 1e-2f;
    gx[i] = keep + hh;
    double fp = eval_arr(0);
    gx[i] = keep - hh;
    double fm = eval_arr(0);
    gx[i] = keep;
    fz_check("float array d/dx", dx[i], (fp - fm) / (2.0 * hh), 2e-3);
  }
  return fz_finish();
}
