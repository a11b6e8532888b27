// OPT: O0 O1 O2 O3
// Forward mode over whole-struct copies of calloc'd structs with padding (c31's
// store-back pairs and member-array typing, seen from forward mode): particles {pos[3],
// vel[3], mass, int id} (4 bytes of padding after id) updated by `q = ps[i]; ...;
// ps[i] = q`, their member arrays filled by `fz_fill(ps[i].pos, 3, ..)`;
// `enzyme_primal_return` gives the energy and its tangent together. Oracle: central
// differences along the tangent direction, and the output tangents of the updated
// positions against their closed form.
#include "fz_test.h"

typedef struct { double y, dy; } primal_tangent;
extern primal_tangent __enzyme_fwddiff_pt(void *, ...);
extern int enzyme_primal_return;

typedef struct {
  double pos[3], vel[3], mass;
  int id;
} particle;

enum { P = 3 };

double drift(particle *ps, double dt, int np) {
  double e = 0;
  for (int i = 0; i < np; i++) {
    particle q = ps[i];
    for (int d = 0; d < 3; d++) q.pos[d] += dt * q.vel[d] * (1 + q.id);
    e += q.mass * (q.pos[0] * q.pos[0] + q.pos[1] * q.pos[2]);
    ps[i] = q;
  }
  return e;
}

static particle *g_base;
static double g_dt = 0.1;
static double eval(void *c) {
  (void)c;
  particle *ps = calloc(P, sizeof *ps);
  memcpy(ps, g_base, P * sizeof *ps);
  double r = drift(ps, g_dt, P);
  free(ps);
  return r;
}

int main(void) {
  fz_seed(67);
  g_base = calloc(P, sizeof *g_base);
  for (int i = 0; i < P; i++) {
    fz_fill(g_base[i].pos, 3, -1, 1);
    fz_fill(g_base[i].vel, 3, -1, 1);
    g_base[i].mass = 1 + i;
    g_base[i].id = i;
  }
  particle *ps = calloc(P, sizeof *ps), *tps = calloc(P, sizeof *tps);
  memcpy(ps, g_base, P * sizeof *ps);
  for (int i = 0; i < P; i++)
    for (int d = 0; d < 3; d++) {
      tps[i].pos[d] = 0.3 - 0.1 * d + 0.05 * i;
      tps[i].vel[d] = -0.2 + 0.1 * i * d;
    }
  double tdt = 0.5;
  primal_tangent r = __enzyme_fwddiff_pt((void *)drift, enzyme_primal_return, enzyme_dup, ps,
                                         tps, g_dt, tdt, enzyme_const, P);
  fz_check("primal energy", r.y, eval(NULL), 1e-14);
  /* central difference along the direction */
  double h = 1e-6;
  particle saved[P];
  memcpy(saved, g_base, sizeof saved);
  /* the input direction again (tps now holds the output tangents) */
  particle dir[P];
  memset(dir, 0, sizeof dir);
  for (int i = 0; i < P; i++)
    for (int d = 0; d < 3; d++) {
      dir[i].pos[d] = 0.3 - 0.1 * d + 0.05 * i;
      dir[i].vel[d] = -0.2 + 0.1 * i * d;
    }
  for (int i = 0; i < P; i++)
    for (int d = 0; d < 3; d++) {
      g_base[i].pos[d] = saved[i].pos[d] + h * dir[i].pos[d];
      g_base[i].vel[d] = saved[i].vel[d] + h * dir[i].vel[d];
    }
  g_dt += h * tdt;
  double fp = eval(NULL);
  for (int i = 0; i < P; i++)
    for (int d = 0; d < 3; d++) {
      g_base[i].pos[d] = saved[i].pos[d] - h * dir[i].pos[d];
      g_base[i].vel[d] = saved[i].vel[d] - h * dir[i].vel[d];
    }
  g_dt -= 2 * h * tdt;
  double fm = eval(NULL);
  g_dt += h * tdt;
  memcpy(g_base, saved, sizeof saved);
  fz_check("energy tangent vs central difference", r.dy, (fp - fm) / (2 * h), 1e-6);
  char nm[48];
  for (int i = 0; i < P; i++)
    for (int d = 0; d < 3; d++) {
      double want = dir[i].pos[d] + (tdt * saved[i].vel[d] + g_dt * dir[i].vel[d]) * (1 + i);
      snprintf(nm, sizeof nm, "pos tangent [%d][%d]", i, d);
      fz_check(nm, tps[i].pos[d], want, 1e-12);
      snprintf(nm, sizeof nm, "vel tangent [%d][%d]", i, d);
      fz_check(nm, tps[i].vel[d], dir[i].vel[d], 0);
    }
  free(ps), free(tps), free(g_base);
  return fz_finish();
}
