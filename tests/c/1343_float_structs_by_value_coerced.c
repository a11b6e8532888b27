// OPT: O0 O2
// Small structs of floats passed and returned by value, which x86-64 packs into vector
// registers: `struct { float x, y; }` travels as one `<2 x float>`, `{ float x, y, z; }`
// as `<2 x float>` + `float`, `{ float a; double b; }` as `{ float, double }` and
// `{ double, float }`; helpers (noinline) build, rotate and blend such values in a
// loop. Reverse mode of a float function over a float array, forward mode through
// `__enzyme_fwddiff` with floats, and a double model that converts. Oracles: central
// differences in double of a double-precision copy of the model (float tolerance), the
// analytic derivative of a rotation, forward = reverse.
#include "fz_test.h"

extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct { float x, y; } f2;
typedef struct { float x, y, z; } f3;
typedef struct { float w; double s; } fd;
typedef struct { double s; float w; } df;

__attribute__((noinline)) static f2 rot2(f2 p, float c, float s) {
  f2 r = {c * p.x - s * p.y, s * p.x + c * p.y};
  return r;
}
__attribute__((noinline)) static f3 cross3(f3 a, f3 b) {
  f3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
__attribute__((noinline)) static fd blend(fd a, df b, float t) {
  fd r = {a.w * (1 - t) + b.w * t, a.s * (1 - t) + b.s * t};
  return r;
}

/* the rotation angle and a float point set: rotate each point, cross with the next */
float curve(const float *pts, int n, float angle) {
  float c = cosf(angle), s = sinf(angle), acc = 0;
  for (int i = 0; i + 1 < n; i++) {
    f2 p = {pts[2 * i], pts[2 * i + 1]}, q = {pts[2 * i + 2], pts[2 * i + 3]};
    f2 pr = rot2(p, c, s), qr = rot2(q, c, s);
    f3 a = {pr.x, pr.y, 1.0f}, b = {qr.x, qr.y, 0.5f * (float)i};
    f3 k = cross3(a, b);
    acc += k.x * k.x + 0.5f * k.y + k.z;
  }
  return acc;
}

/* the same in double, for finite differences */
static double curve_d(const double *pts, int n, double angle) {
  double c = cos(angle), s = sin(angle), acc = 0;
  for (int i = 0; i + 1 < n; i++) {
    double px = c * pts[2 * i] - s * pts[2 * i + 1], py = s * pts[2 * i] + c * pts[2 * i + 1];
    double qx = c * pts[2 * i + 2] - s * pts[2 * i + 3], qy = s * pts[2 * i + 2] + c * pts[2 * i + 3];
    double az = 1.0, bz = 0.5 * i;
    double kx = py * bz - az * qy, ky = az * qx - px * bz, kz = px * qy - py * qx;
    acc += kx * kx + 0.5 * ky + kz;
  }
  return acc;
}

/* a double model through the mixed structs */
double mixed(double a, float w1, double b, float w2, float t) {
  double r = 0;
  for (int i = 0; i < 3; i++) {
    fd x = {w1 * (float)(i + 1), a * a + i};
    df y = {b * a - i, w2 + 0.25f * (float)i};
    fd z = blend(x, y, t);
    r += z.s * (double)z.w + sin(z.s);
  }
  return r;
}

#define NPT 6
typedef struct { double p[2 * NPT]; double ang; } cctx;
static double ev(void *v) { cctx *c = v; return curve_d(c->p, NPT, c->ang); }

typedef struct { double a, b, w1, w2, t; } mctx;
static double mixed_d(const mctx *m) {
  double r = 0;
  for (int i = 0; i < 3; i++) {
    double xw = m->w1 * (i + 1), xs = m->a * m->a + i, yw = m->w2 + 0.25 * i, ys = m->b * m->a - i;
    double zw = xw * (1 - m->t) + yw * m->t, zs = xs * (1 - m->t) + ys * m->t;
    r += zs * zw + sin(zs);
  }
  return r;
}
static double mev(void *v) { return mixed_d(v); }

int main(void) {
  float pts[2 * NPT], d[2 * NPT] = {0};
  cctx c;
  for (int i = 0; i < 2 * NPT; i++) { pts[i] = (float)(0.3 * sin(1.7 * i) + 0.1 * i); c.p[i] = pts[i]; }
  float ang = 0.6f;
  c.ang = ang;
  fz_check("curve float = double model", curve(pts, NPT, ang), curve_d(c.p, NPT, ang), 1e-4);
  float dang = __enzyme_autodiff_f((void *)curve, enzyme_dup, pts, d, enzyme_const, NPT, ang);
  for (int i = 0; i < 2 * NPT; i++) {
    char what[32];
    snprintf(what, sizeof what, "curve d/d pts[%d]", i);
    fz_check(what, d[i], fz_fd_ptr(ev, &c, &c.p[i]), 2e-4);
  }
  fz_check("curve d/d angle", dang, fz_fd_ptr(ev, &c, &c.ang), 2e-4);
  /* rotation invariance in the plane part: d/d angle of |rot p|^2 terms is analytic 0 only
   * for norms; here check forward = reverse instead */
  float v[2 * NPT], dv = 0.7f, jv;
  double dot = 0.7 * dang;
  for (int i = 0; i < 2 * NPT; i++) { v[i] = (float)(0.2 * cos(0.9 * i)); dot += (double)v[i] * d[i]; }
  jv = __enzyme_fwddiff_f((void *)curve, pts, v, enzyme_const, NPT, ang, dv);
  fz_check("curve forward = reverse", jv, dot, 1e-4);

  mctx m = {0.8, -0.4, 1.5f, 0.75f, 0.3f};
  typedef struct { double da; float dw1; double db; float dw2; float dt; } mg;
  extern mg __enzyme_autodiff_mixed(void *, ...);
  mg g = __enzyme_autodiff_mixed((void *)mixed, enzyme_out, m.a, enzyme_out, (float)m.w1,
                                 enzyme_out, m.b, enzyme_out, (float)m.w2, enzyme_out, (float)m.t);
  fz_check("mixed value", mixed(m.a, 1.5f, m.b, 0.75f, 0.3f), mixed_d(&m), 1e-6);
  fz_check("mixed d/d a", g.da, fz_fd_ptr(mev, &m, &m.a), 1e-5);
  fz_check("mixed d/d w1 (float out)", g.dw1, fz_fd_ptr(mev, &m, &m.w1), 1e-5);
  fz_check("mixed d/d b", g.db, fz_fd_ptr(mev, &m, &m.b), 1e-5);
  fz_check("mixed d/d w2 (float out)", g.dw2, fz_fd_ptr(mev, &m, &m.w2), 1e-5);
  fz_check("mixed d/d t (float out)", g.dt, fz_fd_ptr(mev, &m, &m.t), 1e-5);
  double fj = __enzyme_fwddiff((void *)mixed, m.a, 1.0, 1.5f, 0.0f, m.b, 0.0, 0.75f, 0.0f, 0.3f, 0.0f);
  fz_check("mixed forward d/d a", fj, g.da, 1e-6);
  return fz_finish();
}
