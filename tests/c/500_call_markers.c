// OPT: O0 O2
// LLI: O0 O2
// Enzyme's call-level markers: enzyme_primal_return (reverse and forward mode; the
// primal runs once), enzyme_const_return (reverse: no seed of the result; forward: no
// tangent returned), enzyme_noret, enzyme_active_return, and per-call hints that change
// nothing (enzyme_nofree, enzyme_runtime_activity, enzyme_not_overwritten).
// Oracles: analytic derivatives, the primal computed by plain calls, a call counter.
#include "fz_test.h"

extern int enzyme_primal_return, enzyme_const_return, enzyme_active_return, enzyme_noret;
extern int enzyme_nofree, enzyme_runtime_activity, enzyme_not_overwritten;

typedef struct { double primal, dx, dy; } pr3;
typedef struct { double primal, d; } pr2;
typedef struct { int count; double dscale; } ipr;
extern pr3 __enzyme_autodiff_pr3(void *, ...);
extern pr2 __enzyme_autodiff_pr2(void *, ...);
extern ipr __enzyme_autodiff_ipr(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
extern pr2 __enzyme_fwddiff_pr2(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

static int calls;

double f(double x, double y) {
  calls++;
  return x * sin(y) + y * y * x;
}

/* Writes outputs and returns a value: with enzyme_const_return only the outputs'
 * seeds drive the gradient. */
double g(const double *x, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    out[i] = x[i] * x[i] * 3.0;
    s += exp(x[i]);
  }
  return s;
}

/* Integer result: the primal comes back in the struct's int field. */
int count_pos(const double *x, double scale, int n, double *acc) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0) c++;
    *acc += scale * x[i];
  }
  return c;
}

int main(void) {
  double x = 0.7, y = -1.3;
  calls = 0;
  pr3 r = __enzyme_autodiff_pr3((void *)f, enzyme_primal_return, x, y);
  fz_check("primal_return: calls of f", calls, 1, 0);
  calls = 0;
  fz_check("primal_return: primal", r.primal, f(x, y), 1e-15);
  fz_check("primal_return: df/dx", r.dx, sin(y) + y * y, 1e-13);
  fz_check("primal_return: df/dy", r.dy, x * cos(y) + 2 * y * x, 1e-13);

  /* Per-call hints that do not change the derivative, and enzyme_active_return. */
  pr3 h = __enzyme_autodiff_pr3((void *)f, enzyme_nofree, enzyme_runtime_activity,
                                enzyme_active_return, enzyme_primal_return,
                                enzyme_not_overwritten, x, y);
  fz_check("hints: df/dx", h.dx, r.dx, 0);
  fz_check("hints: df/dy", h.dy, r.dy, 0);

  /* Pointer argument with primal_return: only the primal comes back by value. */
  double xs[4] = {0.3, -0.2, 1.1, 0.5}, dxs[4] = {0}, out[4], dout[4] = {1, 2, 3, 4};
  pr2 p2 = __enzyme_autodiff_pr2((void *)f, enzyme_primal_return, enzyme_const, x, y);
  fz_check("primal_return, y active only: primal", p2.primal, f(x, y), 1e-15);
  fz_check("primal_return, y active only: df/dy", p2.d, x * cos(y) + 2 * y * x, 1e-13);

  /* enzyme_const_return: the result is not seeded, the outputs are. */
  __enzyme_autodiff_void((void *)g, enzyme_const_return, enzyme_dup, xs, dxs, enzyme_dup, out,
                         dout, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    char what[64];
    snprintf(what, sizeof what, "const_return: dg/dx[%d] (outputs only)", i);
    fz_check(what, dxs[i], (i + 1) * 6.0 * xs[i], 1e-13);
  }
  /* The default (active return) adds exp(x). */
  double dxs2[4] = {0}, dout2[4] = {1, 2, 3, 4};
  __enzyme_autodiff((void *)g, enzyme_dup, xs, dxs2, enzyme_dup, out, dout2, enzyme_const, 4);
  for (int i = 0; i < 4; i++)
    fz_check("active return: dg/dx", dxs2[i], (i + 1) * 6.0 * xs[i] + exp(xs[i]), 1e-13);

  /* Integer primal with primal_return. */
  double acc = 0, dacc = 1.0, xz[4] = {0.3, -0.2, 1.1, 0.5}, dxz[4] = {0};
  ipr ic = __enzyme_autodiff_ipr((void *)count_pos, enzyme_primal_return, enzyme_dup, xz, dxz,
                                 2.5, enzyme_const, 4, enzyme_dup, &acc, &dacc);
  fz_check("primal_return int: count", ic.count, 3, 0);
  fz_check("primal_return int: acc", acc, 2.5 * (0.3 - 0.2 + 1.1 + 0.5), 1e-14);
  fz_check("primal_return int: d/dscale", ic.dscale, 0.3 - 0.2 + 1.1 + 0.5, 1e-14);
  for (int i = 0; i < 4; i++) fz_check("primal_return int: d/dx", dxz[i], 2.5, 1e-14);

  /* Forward mode: primal then tangent; const_return: no tangent returned, outputs'
   * tangents still written. */
  calls = 0;
  pr2 fw = __enzyme_fwddiff_pr2((void *)f, enzyme_primal_return, x, 1.0, y, 0.5);
  fz_check("fwd primal_return: calls of f", calls, 1, 0);
  fz_check("fwd primal_return: primal", fw.primal, f(x, y), 1e-15);
  fz_check("fwd primal_return: tangent", fw.d,
           (sin(y) + y * y) * 1.0 + (x * cos(y) + 2 * y * x) * 0.5, 1e-13);
  double tx[4] = {1, 0, 0, 1}, tout[4];
  __enzyme_fwddiff_void((void *)g, enzyme_const_return, enzyme_dup, xs, tx, enzyme_dup, out,
                        tout, enzyme_const, 4);
  for (int i = 0; i < 4; i++)
    fz_check("fwd const_return: output tangent", tout[i], 6.0 * xs[i] * tx[i], 1e-13);
  double t = __enzyme_fwddiff((void *)g, enzyme_dup, xs, tx, enzyme_dup, out, tout,
                              enzyme_const, 4);
  fz_check("fwd active return: tangent", t, exp(xs[0]) + exp(xs[3]), 1e-13);
  return fz_finish();
}
