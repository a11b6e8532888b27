// OPT: O0 O1 O2 O3
// Molecular dynamics as users write it: Lennard-Jones energy of particles in a periodic
// box, an array of `struct { double x, y, z; }`, minimum image by `nearbyint`, a cutoff
// branch with the shifted potential, the box length `enzyme_const`. Forces are minus the
// reverse gradient; a forward directional derivative must equal their dot product with
// the direction (dot-product identity). Oracle: central finite differences.
#include "fz_test.h"

typedef struct { double x, y, z; } vec3;
extern double __enzyme_fwddiff(void *, ...);

#define NP 12

double lj_energy(const vec3 *p, int n, double box) {
  const double rc = 2.5, rc2 = rc * rc;
  const double sr6c = 1.0 / (rc2 * rc2 * rc2);
  const double ecut = 4.0 * (sr6c * sr6c - sr6c);
  double e = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z;
      dx -= box * nearbyint(dx / box);
      dy -= box * nearbyint(dy / box);
      dz -= box * nearbyint(dz / box);
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        double s6 = 1.0 / (r2 * r2 * r2);
        e += 4.0 * (s6 * s6 - s6) - ecut;
      }
    }
  return e;
}

static vec3 P[NP];
static double eval(void *ctx) { (void)ctx; return lj_energy(P, NP, 4.0); }

int main(void) {
  /* a perturbed cubic lattice (spacing 1.3 in a box of 4) so no pair is too close */
  int k = 0;
  fz_seed(745);
  for (int a = 0; a < 3 && k < NP; a++)
    for (int b = 0; b < 2 && k < NP; b++)
      for (int c = 0; c < 2 && k < NP; c++, k++) {
        P[k].x = 1.3 * a + fz_uniform(-0.1, 0.1);
        P[k].y = 1.9 * b + fz_uniform(-0.1, 0.1);
        P[k].z = 1.9 * c + fz_uniform(-0.1, 0.1);
      }
  vec3 dP[NP];
  memset(dP, 0, sizeof dP);
  __enzyme_autodiff((void *)lj_energy, enzyme_dup, P, dP, enzyme_const, NP, enzyme_const, 4.0);
  double fd[3 * NP];
  fz_fd_grad(eval, NULL, (double *)P, 3 * NP, fd);
  fz_check_arr("dE/dp", (double *)dP, fd, 3 * NP, 1e-5);
  /* Newton's third law: the forces sum to zero */
  double sx = 0, sy = 0, sz = 0;
  for (int i = 0; i < NP; i++) sx += dP[i].x, sy += dP[i].y, sz += dP[i].z;
  fz_check("sum fx", sx, 0.0, 1e-9);
  fz_check("sum fy", sy, 0.0, 1e-9);
  fz_check("sum fz", sz, 0.0, 1e-9);
  vec3 v[NP];
  double dot = 0;
  for (int i = 0; i < NP; i++) {
    v[i].x = fz_uniform(-1, 1), v[i].y = fz_uniform(-1, 1), v[i].z = fz_uniform(-1, 1);
    dot += v[i].x * dP[i].x + v[i].y * dP[i].y + v[i].z * dP[i].z;
  }
  double jv = __enzyme_fwddiff((void *)lj_energy, enzyme_dup, P, v, enzyme_const, NP,
                               enzyme_const, 4.0);
  fz_check("fwd . v == grad . v", jv, dot, 1e-10);
  return fz_finish();
}
