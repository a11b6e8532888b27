// OPT: O0 O1 O2 O3
// Small structs crossing calls by value, each in its own x86-64 classification, inside
// the differentiated code: `{double, double}` returned in two SSE registers,
// `{float, float}` packed into one `<2 x float>`, `{double, double, double}` returned
// through `sret`, `{int, double}` passed in an integer and an SSE register, a
// `{float, float, float, float}` in two `<2 x float>`s; callees `noinline` so every
// level sees the calls. Oracle: analytic gradient (for the parameters that stay in double)
// and five-point finite differences.
#include "fz_test.h"

typedef struct { double re, im; } cplx;
typedef struct { float u, v; } f2;
typedef struct { double x, y, z; } d3;
typedef struct { int n; double scale; } tagged;
typedef struct { float a, b, c, d; } f4;

__attribute__((noinline)) static cplx cmul(cplx a, cplx b) {
  cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}
__attribute__((noinline)) static f2 rot(f2 p, float t) {
  f2 r = {p.u * cosf(t) - p.v * sinf(t), p.u * sinf(t) + p.v * cosf(t)};
  return r;
}
__attribute__((noinline)) static d3 cross(d3 a, d3 b) {
  d3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
__attribute__((noinline)) static double powscale(tagged t, double x) {
  double r = 1;
  for (int i = 0; i < t.n; i++) r *= x;
  return t.scale * r;
}
__attribute__((noinline)) static f4 fmix(f4 q, float s) {
  f4 r = {q.a * s, q.b + s, q.c * q.d, q.d - s * s};
  return r;
}

double objective(const double *p) {
  cplx z = {p[0], p[1]}, w = {p[2], 0.5};
  cplx zz = cmul(cmul(z, z), w); /* z^2 w */
  f2 q = rot((f2){(float)p[3], 1.0f}, 0.3f);
  d3 c = cross((d3){p[0], p[4], 1.0}, (d3){p[5], p[2], p[3]});
  tagged t = {3, p[5]};
  f4 m = fmix((f4){(float)p[4], 2.0f, (float)p[1], 0.5f}, (float)p[0]);
  return zz.re + 2.0 * zz.im + (double)q.u * (double)q.v + c.x * c.z - c.y +
         powscale(t, p[1]) + (double)(m.a + m.b + m.c + m.d);
}

#define NP 6
static double P[NP] = {0.7, -0.4, 1.1, 0.9, -1.3, 0.6};
static double eval(void *ctx) { (void)ctx; return objective(P); }

int main(void) {
  double dP[NP] = {0}, fd[NP];
  __enzyme_autodiff((void *)objective, enzyme_dup, P, dP);
  /* the float parts round the primal to float: a five-point stencil with a 1e-3 step and
   * a float-sized tolerance (a 1e-6 step would be below float resolution) */
  for (int i = 0; i < NP; i++) fd[i] = fz_fd5_ptr(eval, NULL, &P[i]);
  fz_check_arr("grad (fd5)", dP, fd, NP, 1e-4);
  /* analytic pieces that do not go through float: d/dp2 */
  double a = P[0], b = P[1];
  double zr = a * a - b * b, zi = 2 * a * b;
  /* zz = (zr + i zi)(p2 + 0.5 i): re = zr p2 - 0.5 zi, im = zr * 0.5 + zi p2 */
  /* c = (p0,p4,1) x (p5,p2,p3): c.x = p4 p3 - p2, c.y = p5 - p0 p3, c.z = p0 p2 - p4 p5 */
  double cx = P[4] * P[3] - P[2], cz = P[0] * P[2] - P[4] * P[5];
  double want2 = zr + 2.0 * zi + (-1.0) * cz + cx * P[0];
  fz_check("d/dp2 (analytic)", dP[2], want2, 1e-12);
  double want5 = -cx * P[4] - 1.0 + b * b * b;
  fz_check("d/dp5 (analytic)", dP[5], want5, 1e-12);
  return fz_finish();
}
