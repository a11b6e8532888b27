// OPT: O0 O2
// f-variants of libm (float): sinf cosf tanf expf logf sqrtf powf tanhf fabsf
// atan2f hypotf fmaxf erff cbrtf log1pf expm1f.
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, float);
typedef struct { float d0, d1; } fgrad2;
extern fgrad2 __enzyme_autodiff_ff(void *, float, float);

float f_sinf(float x) { return sinf(x); }
float f_cosf(float x) { return cosf(x); }
float f_tanf(float x) { return tanf(x); }
float f_expf(float x) { return expf(x); }
float f_logf(float x) { return logf(x); }
float f_sqrtf(float x) { return sqrtf(x); }
float f_tanhf(float x) { return tanhf(x); }
float f_fabsf(float x) { return fabsf(x) * x; }
float f_erff(float x) { return erff(x); }
float f_cbrtf(float x) { return cbrtf(x); }
float f_log1pf(float x) { return log1pf(x); }
float f_expm1f(float x) { return expm1f(x); }
float f_powf(float x, float y) { return powf(x, y); }
float f_atan2f(float y, float x) { return atan2f(y, x); }
float f_hypotf(float x, float y) { return hypotf(x, y) + fmaxf(x, y); }

#define CHECKF(fn, x, formula)                                        \
  do {                                                                \
    float got_ = __enzyme_autodiff_f((void *)fn, (x));                \
    fz_check(#fn, (double)got_, (formula), 2e-5);                     \
  } while (0)

int main(void) {
  fz_seed(14);
  for (int t = 0; t < 3; t++) {
    float x = (float)fz_uniform(0.3, 1.2);
    double xd = x;
    CHECKF(f_sinf, x, cos(xd));
    CHECKF(f_cosf, x, -sin(xd));
    CHECKF(f_tanf, x, 1.0 + tan(xd) * tan(xd));
    CHECKF(f_expf, x, exp(xd));
    CHECKF(f_logf, x, 1.0 / xd);
    CHECKF(f_sqrtf, x, 0.5 / sqrt(xd));
    CHECKF(f_tanhf, x, 1.0 - tanh(xd) * tanh(xd));
    CHECKF(f_fabsf, -x, 2.0 * xd);
    CHECKF(f_erff, x, 1.1283791670955126 * exp(-xd * xd));
    CHECKF(f_cbrtf, x, 1.0 / (3.0 * cbrt(xd) * cbrt(xd)));
    CHECKF(f_log1pf, x, 1.0 / (1.0 + xd));
    CHECKF(f_expm1f, x, exp(xd));
    float y = (float)fz_uniform(-1.5, 1.5);
    double yd = y;
    fgrad2 g = __enzyme_autodiff_ff((void *)f_powf, x, y);
    fz_check("dpowf/dx", g.d0, yd * pow(xd, yd - 1.0), 2e-5);
    fz_check("dpowf/dy", g.d1, pow(xd, yd) * log(xd), 2e-5);
    g = __enzyme_autodiff_ff((void *)f_atan2f, y, x);
    fz_check("datan2f/dy", g.d0, xd / (xd * xd + yd * yd), 2e-5);
    fz_check("datan2f/dx", g.d1, -yd / (xd * xd + yd * yd), 2e-5);
    if (fabs(xd - yd) < 0.05) y = (float)(yd + 0.3), yd = y;
    g = __enzyme_autodiff_ff((void *)f_hypotf, x, y);
    double h = hypot(xd, yd);
    fz_check("dhypotf+fmaxf/dx", g.d0, xd / h + (xd > yd ? 1.0 : 0.0), 2e-5);
    fz_check("dhypotf+fmaxf/dy", g.d1, yd / h + (xd > yd ? 0.0 : 1.0), 2e-5);
  }
  return fz_finish();
}
