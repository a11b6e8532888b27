// OPT: O0 O1 O2 O3
// Structs passed and returned by value: complex multiply returning
// struct {double re, im;}, a 3-vector struct (sret on x86-64), used in loops.
#include "fz_test.h"

typedef struct { double re, im; } cplx;
typedef struct { double x, y, z; } vec3;

__attribute__((noinline)) cplx cmul(cplx a, cplx b) {
  cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}
__attribute__((noinline)) vec3 cross(vec3 a, vec3 b) {
  vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return r;
}
static inline vec3 vadd(vec3 a, vec3 b) { vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }

/* z = prod_k (p[2k] + i p[2k+1]); return |z|^2 + Re z */
double fc(const double *p, int n) {
  cplx z = {1.0, 0.0};
  for (int k = 0; k < n; k++) {
    cplx w = {p[2 * k], p[2 * k + 1]};
    z = cmul(z, w);
  }
  return z.re * z.re + z.im * z.im + z.re;
}

/* running cross products of consecutive vectors */
double fv(const vec3 *v, int n) {
  vec3 acc = {0, 0, 0};
  for (int k = 0; k + 1 < n; k++) acc = vadd(acc, cross(v[k], v[k + 1]));
  return acc.x * 1.0 + acc.y * 2.0 + acc.z * 3.0 + acc.x * acc.y;
}

/* struct passed by value as the active argument itself */
double fbyval(cplx a, cplx b) {
  cplx r = cmul(a, b);
  return r.re * r.im;
}

#define N 6
struct ctx { double *p; int w; };
static double eval(void *c) {
  struct ctx *k = c;
  return k->w ? fv((const vec3 *)k->p, N) : fc(k->p, N);
}

int main(void) {
  fz_seed(107);
  double p[3 * N], dp[3 * N], fd[3 * N];
  fz_fill(p, 3 * N, -1, 1);
  fz_zero(dp, 2 * N);
  __enzyme_autodiff((void *)fc, enzyme_dup, p, dp, enzyme_const, N);
  struct ctx c = {p, 0};
  fz_fd_grad(eval, &c, p, 2 * N, fd);
  fz_check_arr("dfc", dp, fd, 2 * N, 1e-6);

  vec3 v[N], dv[N];
  memcpy(v, p, sizeof v);
  memset(dv, 0, sizeof dv);
  __enzyme_autodiff((void *)fv, enzyme_dup, v, dv, enzyme_const, N);
  struct ctx c2 = {(double *)v, 1};
  fz_fd_grad(eval, &c2, (double *)v, 3 * N, fd);
  fz_check_arr("dfv", (double *)dv, fd, 3 * N, 1e-6);

  /* by-value struct args: {a.re,a.im} and {b.re,b.im} split into 4 active doubles */
  cplx a = {0.7, -0.4}, b = {1.3, 0.9};
  typedef struct { double d0, d1, d2, d3; } g4;
  extern g4 __enzyme_autodiff4(void *, ...);
  g4 g = __enzyme_autodiff4((void *)fbyval, a, b);
  /* r.re = ar br - ai bi, r.im = ar bi + ai br; f = re*im */
  double re = a.re * b.re - a.im * b.im, im = a.re * b.im + a.im * b.re;
  fz_check("dfbyval/dar", g.d0, b.re * im + re * b.im, 1e-10);
  fz_check("dfbyval/dai", g.d1, -b.im * im + re * b.re, 1e-10);
  fz_check("dfbyval/dbr", g.d2, a.re * im + re * a.im, 1e-10);
  fz_check("dfbyval/dbi", g.d3, -a.im * im + re * a.re, 1e-10);
  return fz_finish();
}
