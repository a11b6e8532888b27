// OPT: O0 O1 O2 O3
// Functions returning small structs by value (sweep20), as C users write a pair or a
// 3-vector result: forward mode returns the tangent struct (`__enzyme_fwddiff` declared
// to return the struct), the same with `enzyme_dupnoneed` (tangent only), and reverse
// mode of a scalar function that calls the struct-returning one. The structs: two
// doubles (returned in registers), three doubles (returned through memory, sret), and a
// float pair (one vector register), and `enzyme_width, 2` (the hook returns both lanes'
// tangent structs, lane 0 first, for the register and the sret results). Oracles: analytic derivatives of polar-to-Cartesian
// and spherical maps, and the dot-product identity between forward and reverse.
#include "fz_test.h"

typedef struct { double x, y; } P2;
typedef struct { double x, y, z; } P3;
typedef struct { float a, b; } F2;

P2 polar(double r, double th) { P2 p = {r * cos(th), r * sin(th)}; return p; }
P3 sph(double r, double th, double ph) {
  P3 p = {r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th)};
  return p;
}
F2 rot(float a, float t) { F2 v = {a * cosf(t), a * sinf(t)}; return v; }

double dist2(double r, double th, double ph) {
  P3 a = sph(r, th, ph);
  P2 b = polar(r, ph);
  double dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy + a.z * a.z;
}

extern P2 __enzyme_fwddiff_p2(void *, ...);
extern P3 __enzyme_fwddiff_p3(void *, ...);
extern F2 __enzyme_fwddiff_f2(void *, ...);
extern int enzyme_dupnoneed, enzyme_width;
typedef struct { P2 l[2]; } P2x2;
typedef struct { P3 l[2]; } P3x2;
extern P2x2 __enzyme_fwddiff_p2x2(void *, ...);
extern P3x2 __enzyme_fwddiff_p3x2(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double dr, dth, dph; } G3;
extern G3 __enzyme_autodiff_g3(void *, ...);

int main(void) {
  double r = 1.3, th = 0.7, ph = -0.4;
  P2 t = __enzyme_fwddiff_p2((void *)polar, r, 1.0, th, 0.0);
  fz_check("polar d/dr x", t.x, cos(th), 1e-15);
  fz_check("polar d/dr y", t.y, sin(th), 1e-15);
  t = __enzyme_fwddiff_p2((void *)polar, enzyme_dupnoneed, r, 0.0, th, 1.0);
  fz_check("polar d/dth x (dupnoneed)", t.x, -r * sin(th), 1e-15);
  fz_check("polar d/dth y (dupnoneed)", t.y, r * cos(th), 1e-15);
  P3 s = __enzyme_fwddiff_p3((void *)sph, r, 0.0, th, 0.0, ph, 1.0);
  fz_check("sph d/dph x", s.x, -r * sin(th) * sin(ph), 1e-15);
  fz_check("sph d/dph y", s.y, r * sin(th) * cos(ph), 1e-15);
  fz_check("sph d/dph z", s.z, 0.0, 0);
  s = __enzyme_fwddiff_p3((void *)sph, r, 0.0, th, 1.0, ph, 0.0);
  fz_check("sph d/dth z", s.z, -r * sin(th), 1e-15);
  F2 f = __enzyme_fwddiff_f2((void *)rot, 2.0f, 0.0f, 0.5f, 1.0f);
  fz_check("float pair d/dt a", f.a, -2.0 * sinf(0.5f), 1e-6);
  fz_check("float pair d/dt b", f.b, 2.0 * cosf(0.5f), 1e-6);

  /* Two lanes at once: d/dr and d/dth. */
  P2x2 t2 = __enzyme_fwddiff_p2x2((void *)polar, enzyme_width, 2, r, 1.0, 0.0, th, 0.0, 1.0);
  fz_check("width 2 polar lane 0 x", t2.l[0].x, cos(th), 1e-15);
  fz_check("width 2 polar lane 1 y", t2.l[1].y, r * cos(th), 1e-15);
  P3x2 s2 = __enzyme_fwddiff_p3x2((void *)sph, enzyme_width, 2, r, 1.0, 0.0, th, 0.0, 1.0, ph,
                                  0.0, 0.0);
  fz_check("width 2 sph lane 0 z (d/dr)", s2.l[0].z, cos(th), 1e-15);
  fz_check("width 2 sph lane 0 x (d/dr)", s2.l[0].x, sin(th) * cos(ph), 1e-15);
  fz_check("width 2 sph lane 1 z (d/dth)", s2.l[1].z, -r * sin(th), 1e-15);
  fz_check("width 2 sph lane 1 y (d/dth)", s2.l[1].y, r * cos(th) * sin(ph), 1e-15);

  G3 g = __enzyme_autodiff_g3((void *)dist2, r, th, ph);
  const double v[3] = {0.3, -1.2, 0.8};
  double fw = __enzyme_fwddiff((void *)dist2, r, v[0], th, v[1], ph, v[2]);
  fz_check("forward = <v, gradient>", fw, v[0] * g.dr + v[1] * g.dth + v[2] * g.dph, 1e-13);
  /* |a - b|^2 with b = polar(r, ph) in the plane: d/dth analytic. */
  P3 a = sph(r, th, ph);
  P2 b = polar(r, ph);
  double dth = 2 * (a.x - b.x) * r * cos(th) * cos(ph) + 2 * (a.y - b.y) * r * cos(th) * sin(ph) -
               2 * a.z * r * sin(th);
  fz_check("reverse d/dth analytic", g.dth, dth, 1e-13);
  return fz_finish();
}
