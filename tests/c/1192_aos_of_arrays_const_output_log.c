// OPT: O0 O1 O2 O3
// Arrays of structs of arrays: particles {pos[3], vel[3], mass, id} and a mesh of cells
// {node[4] indices, w[4] weights}, updated by whole-struct assignment (copies through a
// temporary struct), inner loops over the member arrays, a gather through the integer
// member arrays, and an enzyme_const buffer the function only WRITES (a log of
// energies, never read back: no derivative is needed from it). Oracle: central
// differences of the primal; the log's values against the primal's. Was IGNORE-O0/REF
// (c30): `fz_fill(base[i].pos, 3, ..)`'s every-offset double reached `id` through the
// member GEPs, and the struct copies' `int` accesses were refused (fixed in c31: a pointer
// into a member array reaches that array only, types/layout.rs `field_array`).
#include "fz_test.h"

enum { P = 4, K = 3 };

typedef struct {
  double pos[3], vel[3], mass;
  int id;
} particle;

typedef struct {
  int node[4];
  double w[4];
} cell;

double step_energy(particle *ps, const cell *cells, double dt, double *log, int np, int nc) {
  for (int s = 0; s < 2; s++) {
    for (int i = 0; i < np; i++) {
      particle q = ps[i];
      for (int d = 0; d < 3; d++) {
        q.vel[d] -= dt * q.pos[d] * (1.0 + 0.1 * q.id);
        q.pos[d] += dt * q.vel[d];
      }
      ps[i] = q;
    }
    double e = 0;
    for (int i = 0; i < np; i++)
      for (int d = 0; d < 3; d++) e += 0.5 * ps[i].mass * ps[i].vel[d] * ps[i].vel[d];
    log[s] = e;
  }
  double g = 0, e_last = 0;
  for (int i = 0; i < np; i++)
    for (int d = 0; d < 3; d++) e_last += 0.5 * ps[i].mass * ps[i].vel[d] * ps[i].vel[d];
  for (int c = 0; c < nc; c++) {
    double v = 0;
    for (int k = 0; k < 4; k++) v += cells[c].w[k] * ps[cells[c].node[k]].pos[k % 3];
    g += v * v;
  }
  return g + e_last;
}

static particle base[P];
static cell cells[K];
static double g_dt = 0.05, g_log[2];
static double eval(void *c) {
  particle ps[P];
  memcpy(ps, base, sizeof ps);
  (void)c;
  return step_energy(ps, cells, g_dt, g_log, P, K);
}

int main(void) {
  fz_seed(21);
  for (int i = 0; i < P; i++) {
    fz_fill(base[i].pos, 3, -1, 1);
    fz_fill(base[i].vel, 3, -1, 1);
    base[i].mass = 1.0 + 0.5 * i;
    base[i].id = i;
  }
  for (int c = 0; c < K; c++)
    for (int k = 0; k < 4; k++) cells[c].node[k] = (c + k) % P, cells[c].w[k] = 0.25 * (k + 1);
  particle ps[P], dps[P];
  memcpy(ps, base, sizeof ps);
  memset(dps, 0, sizeof dps);
  double log[2];
  double ddt = __enzyme_autodiff((void *)step_energy, enzyme_dup, ps, dps, enzyme_const, cells,
                                 g_dt, enzyme_const, log, enzyme_const, P, enzyme_const, K);
  eval(NULL);
  fz_check("log[0] primal", log[0], g_log[0], 1e-14);
  fz_check("log[1] primal", log[1], g_log[1], 1e-14);
  char nm[48];
  for (int i = 0; i < P; i++) {
    for (int d = 0; d < 3; d++) {
      snprintf(nm, sizeof nm, "d pos[%d][%d]", i, d);
      fz_check(nm, dps[i].pos[d], fz_fd_ptr(eval, NULL, &base[i].pos[d]), 1e-6);
      snprintf(nm, sizeof nm, "d vel[%d][%d]", i, d);
      fz_check(nm, dps[i].vel[d], fz_fd_ptr(eval, NULL, &base[i].vel[d]), 1e-6);
    }
    snprintf(nm, sizeof nm, "d mass[%d]", i);
    fz_check(nm, dps[i].mass, fz_fd_ptr(eval, NULL, &base[i].mass), 1e-6);
  }
  fz_check("d dt", ddt, fz_fd_ptr(eval, NULL, &g_dt), 1e-6);
  return fz_finish();
}
