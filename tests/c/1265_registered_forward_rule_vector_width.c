// OPT: O0 O1 O2 O3
// A registered forward-mode derivative (`__enzyme_register_derivative_*`) of a function
// taking a pointer to a parameter struct, used in vector forward mode (`enzyme_width,
// 2`: the rule is called once per lane) and in scalar forward mode; the function has no
// body the pass could use instead (declared, defined in this file but `noinline` with a
// deliberately wrong body). Oracle: the analytic derivative of the intended function
// q(x; p) = p->a * tanh(p->b * x).
#include "fz_test.h"

extern int enzyme_width;
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double d[2]; } v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  double a, b;
} prm;

__attribute__((noinline)) double q(double x, const prm *p) {
  return p->a * x * p->b; /* wrong on purpose: the rule says a tanh(b x) */
}

static double fwd_q(double x, double dx, const prm *p, const prm *dp) {
  double t = tanh(p->b * x);
  return dp->a * t + p->a * (1 - t * t) * (dp->b * x + p->b * dx);
}
void *__enzyme_register_derivative_q[] = {(void *)q, (void *)fwd_q};

double model(double x, const prm *p) { return 2 * q(x, p) + x * x; }

int main(void) {
  prm p = {1.5, 0.7};
  double x = 0.9;
  double t = tanh(p.b * x), sech2 = 1 - t * t;
  prm dp0 = {0, 0}, dp1 = {1, 0}, dp2 = {0, 1};
  double dx = __enzyme_fwddiff((void *)model, x, 1.0, enzyme_dup, &p, &dp0);
  fz_check("d/dx scalar", dx, 2 * p.a * sech2 * p.b + 2 * x, 1e-12);
  v2 r = __enzyme_fwddiff_v2((void *)model, enzyme_width, 2, x, 0.0, 0.0, enzyme_dup, &p, &dp1,
                             &dp2);
  fz_check("d/da lane 0", r.d[0], 2 * t, 1e-12);
  fz_check("d/db lane 1", r.d[1], 2 * p.a * sech2 * x, 1e-12);
  v2 r2 = __enzyme_fwddiff_v2((void *)model, enzyme_width, 2, x, 1.0, 2.0, enzyme_dup, &p, &dp0,
                              &dp1);
  fz_check("lane 0: dx=1", r2.d[0], 2 * p.a * sech2 * p.b + 2 * x, 1e-12);
  fz_check("lane 1: dx=2, da=1", r2.d[1], 2 * (p.a * sech2 * p.b + x) * 2 + 2 * t, 1e-12);
  return fz_finish();
}
