// OPT: O0 O1 O2 O3
// Arrays of structs and structs of arrays with enzyme_dup (a shadow array of structs,
// a shadow struct whose array fields are shadows, the struct's integer fields copied
// into the shadow as Enzyme requires), a struct holding pointers to separate arrays,
// and __enzyme_fwddiff with enzyme_dupnoneed on an output array (only tangents wanted;
// the primal output a scratch buffer). Reverse and forward. Oracle: analytic.
#include "fz_test.h"

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

typedef struct {
  double m;     /* mass */
  int id;       /* inactive */
  double x, v;  /* position, velocity */
} particle;

#define P 4
typedef struct {
  int n;
  double x[P], v[P];
} soa;

typedef struct {
  int n;
  double *x, *v;
} view;

/* kinetic + spring energy of an array of structs */
double aos_energy(const particle *p, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * p[i].m * p[i].v * p[i].v;
    if (i) e += 0.5 * k * (p[i].x - p[i - 1].x) * (p[i].x - p[i - 1].x) * (1 + p[i].id % 2);
  }
  return e;
}

double soa_energy(const soa *s, double k) {
  double e = 0;
  for (int i = 0; i < s->n; i++) {
    e += 0.5 * s->v[i] * s->v[i] * (i + 1);
    if (i) e += 0.5 * k * (s->x[i] - s->x[i - 1]) * (s->x[i] - s->x[i - 1]);
  }
  return e;
}

/* out[i] = x[i] * v[i] + sin(x[i]) through a view */
void view_map(const view *in, double *out) {
  for (int i = 0; i < in->n; i++) out[i] = in->x[i] * in->v[i] + sin(in->x[i]);
}

int main(void) {
  particle p[P], dp[P];
  for (int i = 0; i < P; i++) {
    p[i] = (particle){1.0 + 0.5 * i, i, 0.3 * i * i, 0.2 - 0.1 * i};
    dp[i] = (particle){0, i, 0, 0};
  }
  double k = 2.5;
  double dk = __enzyme_autodiff((void *)aos_energy, enzyme_dup, p, dp, enzyme_const, P,
                                enzyme_out, k);
  double wk = 0;
  for (int i = 0; i < P; i++) {
    double wx = 0;
    if (i) wx += k * (p[i].x - p[i - 1].x) * (1 + i % 2);
    if (i + 1 < P) wx -= k * (p[i + 1].x - p[i].x) * (1 + (i + 1) % 2);
    if (i) wk += 0.5 * (p[i].x - p[i - 1].x) * (p[i].x - p[i - 1].x) * (1 + i % 2);
    fz_check("aos dm", dp[i].m, 0.5 * p[i].v * p[i].v, 1e-13);
    fz_check("aos dv", dp[i].v, p[i].m * p[i].v, 1e-13);
    fz_check("aos dx", dp[i].x, wx, 1e-13);
  }
  fz_check("aos dk", dk, wk, 1e-13);

  soa s = {P, {0}, {0}}, ds = {P, {0}, {0}};
  for (int i = 0; i < P; i++) s.x[i] = 0.4 * i - 0.1 * i * i, s.v[i] = 1.0 - 0.3 * i;
  __enzyme_autodiff((void *)soa_energy, enzyme_dup, &s, &ds, enzyme_const, k);
  for (int i = 0; i < P; i++) {
    double wx = 0;
    if (i) wx += k * (s.x[i] - s.x[i - 1]);
    if (i + 1 < P) wx -= k * (s.x[i + 1] - s.x[i]);
    fz_check("soa dv", ds.v[i], s.v[i] * (i + 1), 1e-13);
    fz_check("soa dx", ds.x[i], wx, 1e-13);
  }

  double x[P] = {0.1, 0.7, -0.4, 1.2}, v[P] = {2, -1, 0.5, 0.25};
  double tx[P] = {1, 0.5, -1, 2}, tv[P] = {0, 1, 1, -0.5};
  view in = {P, x, v}, tin = {P, tx, tv};
  double scratch[P], tout[P];
  __enzyme_fwddiff_void((void *)view_map, enzyme_dup, &in, &tin, enzyme_dupnoneed, scratch,
                        tout);
  for (int i = 0; i < P; i++)
    fz_check("view fwd dupnoneed", tout[i], tx[i] * v[i] + x[i] * tv[i] + cos(x[i]) * tx[i],
             1e-13);
  /* reverse through the view: seed on out */
  double bx[P] = {0}, bv[P] = {0}, out[P], bout[P] = {1, -2, 0.5, 3};
  view bin = {P, bx, bv};
  __enzyme_autodiff_void((void *)view_map, enzyme_dup, &in, &bin, enzyme_dup, out, bout);
  double seed[P] = {1, -2, 0.5, 3};
  for (int i = 0; i < P; i++) {
    fz_check("view rev dx", bx[i], seed[i] * (v[i] + cos(x[i])), 1e-13);
    fz_check("view rev dv", bv[i], seed[i] * x[i], 1e-13);
  }
  return fz_finish();
}
