// OPT: O0 O1 O2 O3
// VARIANTS: all
// -O0 and --ad-before-opt were refused with cannot-deduce-type at the int load of `s->flags` in `energy` and the 24-byte copy `vec3 v = *vp` in `field` (memory typed Anything once `main` also hands `&S0.mass[i]` and `&W0[i]` to the finite-difference helper); since stl24 the load is typed by the struct GEP selecting the `int` member and the copy by the `alloca %struct.vec3` it fills (filetests list_size_struct_gep_O0, struct_copy_typed_by_alloca_O0)
// A user's particle system written the way Enzyme's integration tests write C: a
// `struct` of arrays and scalars `enzyme_dup`'d by pointer (shadow struct with its own
// shadow arrays), a `struct` of three doubles dup'd by pointer and copied by value
// inside, an active scalar after it (a 24-byte struct passed by value is `byval` memory:
// rejected with a clear error, see 670 for the 16-byte one that works), integer fields read for
// control flow, a helper returning a struct by value, and a nested struct of a pointer and
// a count. Forward mode of the same energy with `enzyme_width` 3 and `enzyme_dupv`
// (one strided shadow buffer) against the reverse gradient. Oracles: finite differences
// of the primal and the reverse gradient (dot products).
#include "fz_test.h"

extern int enzyme_width, enzyme_dupv;
typedef struct { double x, y, z; } vec3;
typedef struct { double v[3]; } lanes3;
extern void __enzyme_autodiff_void(void *, ...);
extern lanes3 __enzyme_fwddiff_w3(void *, ...);

#define NP 5
typedef struct {
  double *w; /* per-particle weights */
  int n;
} weights;

typedef struct {
  int n;
  double pos[NP][3];
  double mass[NP];
  weights *wt;
  int flags;
} system_t;

static vec3 sub(const double *a, const double *b) {
  vec3 r = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return r;
}

static double dot3(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* pair energy plus a field term, weights through a nested pointer */
__attribute__((noinline)) double energy(const system_t *s) {
  double e = 0;
  for (int i = 0; i < s->n; i++) {
    for (int j = i + 1; j < s->n; j++) {
      vec3 d = sub(s->pos[i], s->pos[j]);
      double r2 = dot3(d, d) + 0.1;
      e += s->mass[i] * s->mass[j] / sqrt(r2);
    }
    if (s->flags & 1) e += s->wt->w[i % s->wt->n] * s->pos[i][2] * s->mass[i];
  }
  return e;
}

/* active struct by value and an active scalar: returns {dE/dv, dE/dk} */
double field(const vec3 *vp, double k, const system_t *s) {
  vec3 v = *vp;
  double e = 0;
  for (int i = 0; i < s->n; i++) {
    vec3 p = {s->pos[i][0], s->pos[i][1], s->pos[i][2]};
    e += s->mass[i] * exp(-k * dot3(v, p)) + k * v.x * v.y;
  }
  return e;
}

static system_t S0;
static double W0[3];
static weights WT0 = {W0, 3};
static double eval_energy(void *c) { (void)c; return energy(&S0); }
static vec3 V0;
static double K0;
static double eval_field(void *c) { (void)c; return field(&V0, K0, &S0); }

int main(void) {
  fz_seed(681);
  S0.n = NP;
  S0.flags = 1;
  S0.wt = &WT0;
  fz_fill(&S0.pos[0][0], NP * 3, -1.0, 1.0);
  fz_fill(S0.mass, NP, 0.5, 1.5);
  fz_fill(W0, 3, 0.2, 0.9);

  /* 1. reverse: struct with arrays and a nested pointer, all dup'd */
  system_t dS;
  memset(&dS, 0, sizeof dS);
  double dW[3] = {0};
  weights dWT = {dW, 3};
  dS.wt = &dWT;
  __enzyme_autodiff_void((void *)energy, enzyme_dup, &S0, &dS);
  for (int i = 0; i < NP; i++)
    for (int c = 0; c < 3; c++)
      fz_check("energy d/dpos", dS.pos[i][c], fz_fd_ptr(eval_energy, 0, &S0.pos[i][c]), 1e-6);
  for (int i = 0; i < NP; i++)
    fz_check("energy d/dmass", dS.mass[i], fz_fd_ptr(eval_energy, 0, &S0.mass[i]), 1e-6);
  for (int i = 0; i < 3; i++)
    fz_check("energy d/dweight", dW[i], fz_fd_ptr(eval_energy, 0, &W0[i]), 1e-6);

  /* 2. active struct by value + active scalar, const system */
  V0.x = 0.3; V0.y = -0.4; V0.z = 0.25; K0 = 0.7;
  vec3 dV = {0, 0, 0};
  double dk = __enzyme_autodiff((void *)field, enzyme_dup, &V0, &dV, K0, enzyme_const, &S0);
  fz_check("field d/dv.x", dV.x, fz_fd_ptr(eval_field, 0, &V0.x), 1e-6);
  fz_check("field d/dv.y", dV.y, fz_fd_ptr(eval_field, 0, &V0.y), 1e-6);
  fz_check("field d/dv.z", dV.z, fz_fd_ptr(eval_field, 0, &V0.z), 1e-6);
  fz_check("field d/dk", dk, fz_fd_ptr(eval_field, 0, &K0), 1e-6);

  /* 3. forward, width 3, dupv: three directions of the positions in one strided buffer */
  static system_t tang[3];
  static double tw[3][3];
  static weights twt[3];
  memset(tang, 0, sizeof tang);
  for (int l = 0; l < 3; l++) {
    twt[l].w = tw[l];
    twt[l].n = 3;
    tang[l].wt = &twt[l];
    for (int i = 0; i < NP; i++) {
      tang[l].pos[i][l] = 1.0 + i;
      tang[l].mass[i] = (l == 1) ? 0.5 : 0.0;
    }
    tw[l][l] = 1.0;
  }
  lanes3 t = __enzyme_fwddiff_w3((void *)energy, enzyme_width, 3, enzyme_dupv,
                                 (long)sizeof(system_t), &S0, tang);
  for (int l = 0; l < 3; l++) {
    double want = 0;
    for (int i = 0; i < NP; i++) {
      want += dS.pos[i][l] * (1.0 + i);
      if (l == 1) want += dS.mass[i] * 0.5;
    }
    want += dW[l];
    fz_check("fwd width 3 dupv lane = <grad, dir>", t.v[l], want, 1e-9 * (1 + fabs(want)));
  }
  return fz_finish();
}
