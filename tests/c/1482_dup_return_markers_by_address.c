// OPT: O0 O1 O2 O3
// probe40: Enzyme's call-level return markers as its C++ header <enzyme/enzyme> passes
// them: by address (`&enzyme_dup_return`, an `int *`, not the marker's value) and
// `enzyme_dup_return` for a float result in forward mode (the tangent is returned; with
// `enzyme_primal_return` the primal first). `enzyme_dup_return` was refused for every
// result ("a pointer result with a shadow is not supported"), so Enzyme's own header
// could not be used for `enzyme::autodiff<enzyme::Forward>`; it stays refused for a
// pointer result and in reverse mode (tests/errors/unsupported_marker.c,
// probe40_dup_return_reverse.c). Oracle: analytic partial derivatives.
#include "fz_test.h"
extern int enzyme_dup_return, enzyme_const_return, enzyme_active_return, enzyme_noret, enzyme_primal_return;
typedef struct { double p, t; } pt;
extern pt __enzyme_fwddiff_pt(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double dx, dy; } g2;
extern g2 __enzyme_autodiff_g2(void *, ...);
typedef struct { g2 d; double p; } g2p;
extern g2p __enzyme_autodiff_g2p(void *, ...);

double f(double x, double y) { return x * sin(y) + y * y * x; }
double dfx(double x, double y) { return sin(y) + y * y; }
double dfy(double x, double y) { return x * cos(y) + 2 * y * x; }

int main(void) {
  double x = 0.7, y = -1.3;
  /* forward, tangent only: what enzyme::autodiff<enzyme::Forward> emits for a double result */
  double t = __enzyme_fwddiff((void *)f, &enzyme_dup_return, &enzyme_noret, &enzyme_dup, x, 1.0, &enzyme_dup, y, 0.5);
  fz_check("fwd dup_return noret (by address)", t, dfx(x, y) + 0.5 * dfy(x, y), 1e-12);
  /* forward with primal */
  pt r = __enzyme_fwddiff_pt((void *)f, &enzyme_dup_return, &enzyme_primal_return, &enzyme_dup, x, 1.0, &enzyme_const, y);
  fz_check("fwd dup_return primal: primal", r.p, f(x, y), 1e-14);
  fz_check("fwd dup_return primal: tangent", r.t, dfx(x, y), 1e-12);
  /* same by value */
  double t2 = __enzyme_fwddiff((void *)f, enzyme_dup_return, enzyme_dup, x, 1.0, enzyme_const, y);
  fz_check("fwd dup_return (by value)", t2, dfx(x, y), 1e-12);
  /* reverse, active return, noret, markers by address */
  g2 g = __enzyme_autodiff_g2((void *)f, &enzyme_active_return, &enzyme_noret, &enzyme_out, x, &enzyme_out, y);
  fz_check("rev by address: dx", g.dx, dfx(x, y), 1e-12);
  fz_check("rev by address: dy", g.dy, dfy(x, y), 1e-12);
  return fz_finish();
}
