// OPT: O0 O2
// VARIANTS: all
// Structs passed by value in two registers, called the natural way (`s, ds`): the x86-64
// ABI splits `struct { double x, y; }` into two doubles, `struct { float a, b, c, d; }`
// into two `<2 x float>` and `struct { double w; long n; }` into a double and an i64, so
// the hook call passes `s.lo, s.hi, ds.lo, ds.hi`; through the clang plugin the pass
// reads the value and its tangent as written (`two_part.rs`). Forward mode (scalar and
// `enzyme_width` 2), reverse mode (the struct's adjoint comes back as a struct of the
// same layout), `enzyme_const`; the integer half of `{ double w; long n; }` takes no
// tangent (its tangent struct's `n` is ignored, also under `enzyme_dup`); a `struct {
// double *p; long n; }` marked `enzyme_const` is constant as a whole. Truth: analytic partials and central
// differences.
#include "fz_test.h"
#include <math.h>

extern int enzyme_width, enzyme_const, enzyme_dup;
typedef struct { double x, y; } vec2;
typedef struct { float a, b, c, d; } quad;
typedef struct { double w; long n; } wn;

double __enzyme_fwddiff_d(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
typedef struct { double l[2]; } dl2;
dl2 __enzyme_fwddiff_w2(void *, ...);
vec2 __enzyme_autodiff_v(void *, ...);
typedef struct { double da; vec2 dv; } av;
av __enzyme_autodiff_av(void *, ...);

__attribute__((noinline)) double energy(vec2 p) { return sin(p.x) * p.y * p.y + p.x * p.x * p.x; }
static double energy_dx(vec2 p) { return cos(p.x) * p.y * p.y + 3 * p.x * p.x; }
static double energy_dy(vec2 p) { return 2 * sin(p.x) * p.y; }

__attribute__((noinline)) double scaled(double a, vec2 p) { return a * exp(p.x - p.y) + p.y * a * a; }

__attribute__((noinline)) float qsum(quad q) { return q.a * q.b + q.c * q.c * q.d; }

struct view { double *p; long n; };
__attribute__((noinline)) double viewsum(struct view v, double a) {
  double s = 0;
  for (long i = 0; i < v.n; i++) s += v.p[i] * v.p[i] * a;
  return s;
}
double __enzyme_autodiff_d(void *, ...);

__attribute__((noinline)) double powsum(wn s) {
  double r = 1;
  for (long i = 0; i < s.n; i++) r *= s.w;
  return r;
}

int main(void) {
  vec2 p = {0.7, -1.2}, dp = {0.3, 0.5}, dq = {-1.0, 0.25};
  double want = energy_dx(p) * dp.x + energy_dy(p) * dp.y;
  fz_check("energy fwd", __enzyme_fwddiff_d((void *)energy, p, dp), want, 1e-12);
  fz_check("energy fwd dup", __enzyme_fwddiff_d((void *)energy, enzyme_dup, p, dp), want, 1e-12);
  dl2 w = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, p, dp, dq);
  fz_check("energy w2 lane 1", w.l[0], want, 1e-12);
  fz_check("energy w2 lane 2", w.l[1], energy_dx(p) * dq.x + energy_dy(p) * dq.y, 1e-12);

  vec2 g = __enzyme_autodiff_v((void *)energy, p);
  fz_check("energy rev dx", g.x, energy_dx(p), 1e-12);
  fz_check("energy rev dy", g.y, energy_dy(p), 1e-12);

  double a = 1.4, h = 1e-6;
  av r = __enzyme_autodiff_av((void *)scaled, a, p);
  fz_check("scaled da", r.da, (scaled(a + h, p) - scaled(a - h, p)) / (2 * h), 1e-7);
  vec2 px = {p.x + h, p.y}, mx = {p.x - h, p.y}, py = {p.x, p.y + h}, my = {p.x, p.y - h};
  fz_check("scaled dx", r.dv.x, (scaled(a, px) - scaled(a, mx)) / (2 * h), 1e-7);
  fz_check("scaled dy", r.dv.y, (scaled(a, py) - scaled(a, my)) / (2 * h), 1e-7);
  fz_check("scaled fwd const p", __enzyme_fwddiff_d((void *)scaled, a, 1.0, enzyme_const, p),
           r.da, 1e-12);
  fz_check("scaled fwd const a",
           __enzyme_fwddiff_d((void *)scaled, enzyme_const, a, p, dp),
           r.dv.x * dp.x + r.dv.y * dp.y, 1e-12);

  quad q = {0.5f, -1.5f, 2.0f, 0.75f}, dqd = {1.0f, 0.5f, -0.25f, 2.0f};
  float wantf = dqd.a * q.b + q.a * dqd.b + 2 * q.c * q.d * dqd.c + q.c * q.c * dqd.d;
  fz_check("quad fwd", __enzyme_fwddiff_f((void *)qsum, q, dqd), wantf, 1e-6);

  wn s = {1.1, 5}, ds = {0.5, 999};
  fz_check("powsum fwd", __enzyme_fwddiff_d((void *)powsum, s, ds), 5 * pow(1.1, 4) * 0.5, 1e-12);
  fz_check("powsum fwd dup", __enzyme_fwddiff_d((void *)powsum, enzyme_dup, s, ds),
           5 * pow(1.1, 4) * 0.5, 1e-12);

  // A struct holding a pointer, enzyme_const as a whole (both halves constant; with
  // enzyme_dup it is refused: tests/errors/struct_view_by_value_dup.c).
  double xs[3] = {1, 2, 3};
  struct view v = {xs, 3};
  fz_check("view const, d/da", __enzyme_autodiff_d((void *)viewsum, enzyme_const, v, 2.0), 14.0, 1e-12);
  return fz_finish();
}
