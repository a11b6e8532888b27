// OPT: O0 O1 O2 O3
// Enzyme's global-shadow contexts: `ctx = __enzyme_context(1)`, `__enzyme_shadow(ctx,
// &g, 0)` (the derivative memory of a mutable global), `__enzyme_zero_shadows(ctx)`,
// and `enzyme_context, ctx` in the hook call; refused before the lead's change. Reverse
// mode reads each global's adjoint from its shadow; without zeroing, adjoints
// accumulate over calls; forward mode takes a global's tangent from its shadow as the
// program seeded it. Oracles: analytic (f = s (w0 + w1) x^2 + h x).
#include "fz_test.h"

extern void *__enzyme_context(int);
extern void *__enzyme_shadow(void *, void *, int);
extern void __enzyme_zero_shadows(void *);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_context;

double scale = 2.0;
double weights[2] = {3.0, 5.0};
double hidden = 7.0;

double f(double x) { return scale * (weights[0] + weights[1]) * x * x + hidden * x; }

int main(void) {
  void *ctx = __enzyme_context(1);
  double *dscale = (double *)__enzyme_shadow(ctx, &scale, 0);
  double *dw = (double *)__enzyme_shadow(ctx, &weights, 0);
  double *dh = (double *)__enzyme_shadow(ctx, &hidden, 0);
  fz_check("a new context's shadows are zero", *dscale + dw[0] + dw[1] + *dh, 0.0, 0);
  for (int i = 1; i <= 3; i++) {
    __enzyme_zero_shadows(ctx);
    double x = i;
    double dx = __enzyme_autodiff((void *)f, enzyme_context, ctx, x);
    fz_check("df/dx", dx, 2 * 2.0 * 8.0 * x + 7.0, 1e-13);
    fz_check("df/dscale from the shadow", *dscale, 8.0 * x * x, 1e-13);
    fz_check("df/dw0", dw[0], 2.0 * x * x, 1e-13);
    fz_check("df/dw1", dw[1], 2.0 * x * x, 1e-13);
    fz_check("df/dhidden", *dh, x, 1e-13);
  }
  /* no zeroing between calls: adjoints accumulate (x = 1, then x = 2) */
  __enzyme_zero_shadows(ctx);
  __enzyme_autodiff((void *)f, enzyme_context, ctx, 1.0);
  __enzyme_autodiff((void *)f, enzyme_context, ctx, 2.0);
  fz_check("accumulated df/dhidden", *dh, 3.0, 1e-13);
  fz_check("accumulated df/dscale", *dscale, 8.0 * (1.0 + 4.0), 1e-13);
  /* forward mode: the globals' tangents are their shadows */
  __enzyme_zero_shadows(ctx);
  *dscale = 1.0;
  fz_check("forward, tangent of scale only", __enzyme_fwddiff((void *)f, enzyme_context, ctx, 2.0, 0.0),
           8.0 * 4.0, 1e-13);
  *dscale = 0.0;
  *dh = 2.0;
  fz_check("forward, tangents of x and hidden",
           __enzyme_fwddiff((void *)f, enzyme_context, ctx, 2.0, 1.0),
           2 * 2.0 * 8.0 * 2.0 + 7.0 + 2.0 * 2.0, 1e-13);
  /* a hook call without a context still starts from zero global shadows */
  *dh = 5.0;
  fz_check("plain call: df/dx", __enzyme_autodiff((void *)f, 1.0), 2 * 2.0 * 8.0 + 7.0, 1e-13);
  fz_check("plain call: its own adjoint of hidden", *dh, 1.0, 1e-13);
  return fz_finish();
}
