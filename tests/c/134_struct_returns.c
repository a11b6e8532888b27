// OPT: O0 O1 O2 O3
// (q38 subset that compiles) A struct of two doubles passed/returned in
// registers by a noinline callee, a struct of 3 doubles passed byval and
// returned via sret.
#include "fz_test.h"

typedef struct { double re, im; } C2;
typedef struct { double x, y, z; } V3;
__attribute__((noinline)) C2 cmul(C2 p, C2 q) { C2 r = {p.re * q.re - p.im * q.im, p.re * q.im + p.im * q.re}; return r; }
__attribute__((noinline)) V3 cross(V3 p, V3 q) { V3 r = {p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x}; return r; }
double f_struct(double a, double b) {
  C2 p = {a, b}, q = {b, 0.5};
  C2 r = cmul(p, q);
  r = cmul(r, r);
  V3 u = {a, b, 1.0}, v = {b, a * a, 2.0};
  V3 w = cross(u, v);
  return r.re + 2 * r.im + w.x * w.y + w.z;
}

static double fa_st(double a) { return f_struct(a, 0.8); }
static double fb_st(double b) { return f_struct(0.6, b); }

int main(void) {
  fz_grad2 g = __enzyme_autodiff2((void *)f_struct, 0.6, 0.8);
  fz_check("struct da", g.d0, fz_fd1(fa_st, 0.6), 1e-6);
  fz_check("struct db", g.d1, fz_fd1(fb_st, 0.8), 1e-6);
  return fz_finish();
}
