// OPT: O0 O1 O2 O3
// probe40: Enzyme's global-shadow query of a member or element of a global at a constant
// offset (`__enzyme_shadow(ctx, &blk.q, 0)` for a COMMON-like struct, `&arr[2]`), as
// Enzyme's global_shadow_query test writes it, was refused ("its second argument must be
// the address of a mutable global variable"). Reverse mode accumulates into the member's
// shadow, `__enzyme_zero_shadows` zeroes it, forward mode reads the tangent seeded there.
// Oracle: analytic partial derivatives.
#include "fz_test.h"
extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern double __enzyme_autodiff_g(double (*)(double), ...) __asm__("__enzyme_autodiff");
extern double __enzyme_fwddiff_g(double (*)(double), ...) __asm__("__enzyme_fwddiff");
extern int enzyme_context;
double g = 2.0;
struct { double p; double q; } blk = {1.0, 3.0};
double arr[4] = {1, 2, 3, 4};
double f(double x) { return g * x * x + blk.q * x + arr[2] * x * x * x; }
int main(void) {
  void *ctx = __enzyme_context(1);
  double *dg = (double *)__enzyme_shadow(ctx, &g, 0);
  double *dq = (double *)__enzyme_shadow(ctx, &blk.q, 0);
  double *da2 = (double *)__enzyme_shadow(ctx, &arr[2], 0);
  double x = 1.5;
  double dx = __enzyme_autodiff_g(f, enzyme_context, ctx, x);
  fz_check("dx", dx, 2 * g * x + blk.q + 3 * arr[2] * x * x, 1e-12);
  fz_check("dg", *dg, x * x, 1e-12);
  fz_check("dq", *dq, x, 1e-12);
  fz_check("darr[2]", *da2, x * x * x, 1e-12);
  __enzyme_zero_shadows(ctx);
  fz_check("zeroed dq", *dq, 0, 0);
  *dq = 1.0;
  double t = __enzyme_fwddiff_g(f, enzyme_context, ctx, x, 0.0);
  fz_check("fwd tangent from dq", t, x, 1e-12);
  return fz_finish();
}
