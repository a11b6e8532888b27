// OPT: O0 O1 O2 O3
// Batched forward mode over an array of structs (sweep23): a 2-D particle system
// (`struct particle { double x, y, vx, vy, m; int fixed; }`) takes leapfrog steps under
// pairwise softened gravity with a fixed particle; `__enzyme_fwddiff` with
// `enzyme_width, 3` and `enzyme_dupv` pushes three tangent copies of the whole struct
// array through one call and returns the three directional derivatives of the final
// kinetic-plus-potential energy. Oracles: three scalar forward calls, reverse mode
// projected on each direction, central finite differences along each direction.
#include <string.h>
#include "fz_test.h"

typedef struct { double x, y, vx, vy, m; int fixed; } particle;
typedef struct { double d[3]; } v3;
extern int enzyme_width, enzyme_dupv;
extern v3 __enzyme_fwddiff_w3(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

#define NPART 4

static void accel(const particle *p, int n, int i, double *ax, double *ay) {
  *ax = *ay = 0;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
    double r2 = dx * dx + dy * dy + 0.05, inv = 1 / (r2 * sqrt(r2));
    *ax += p[j].m * dx * inv;
    *ay += p[j].m * dy * inv;
  }
}

double simulate(particle *p, int n, int steps, double dt) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      if (p[i].fixed) continue;
      double ax, ay;
      accel(p, n, i, &ax, &ay);
      p[i].vx += 0.5 * dt * ax;
      p[i].vy += 0.5 * dt * ay;
    }
    for (int i = 0; i < n; i++)
      if (!p[i].fixed) { p[i].x += dt * p[i].vx; p[i].y += dt * p[i].vy; }
    for (int i = 0; i < n; i++) {
      if (p[i].fixed) continue;
      double ax, ay;
      accel(p, n, i, &ax, &ay);
      p[i].vx += 0.5 * dt * ax;
      p[i].vy += 0.5 * dt * ay;
    }
  }
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * p[i].m * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
    for (int j = i + 1; j < n; j++) {
      double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
      e -= p[i].m * p[j].m / sqrt(dx * dx + dy * dy + 0.05);
    }
  }
  return e;
}

static particle P0[NPART], W[NPART];
static double ev(void *c) {
  (void)c;
  memcpy(W, P0, sizeof W);
  return simulate(W, NPART, 20, 0.01);
}

int main(void) {
  fz_seed(936);
  for (int i = 0; i < NPART; i++) {
    P0[i] = (particle){fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(-0.3, 0.3),
                       fz_uniform(-0.3, 0.3), fz_uniform(0.5, 1.5), i == 0};
  }
  // Three directions over the struct array (ints in the tangents are ignored).
  particle dirs[3][NPART];
  memset(dirs, 0, sizeof dirs);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < NPART; i++) {
      dirs[k][i].x = fz_uniform(-1, 1); dirs[k][i].y = fz_uniform(-1, 1);
      dirs[k][i].vx = fz_uniform(-1, 1); dirs[k][i].vy = fz_uniform(-1, 1);
      dirs[k][i].m = k == 1 ? fz_uniform(-1, 1) : 0;
    }
  particle tmp[3][NPART];
  memcpy(tmp, dirs, sizeof dirs);
  memcpy(W, P0, sizeof W);
  v3 jv = __enzyme_fwddiff_w3((void *)simulate, enzyme_width, 3, enzyme_dupv, sizeof dirs[0],
                              W, tmp, enzyme_const, NPART, enzyme_const, 20, enzyme_const,
                              0.01);
  particle g[NPART];
  memset(g, 0, sizeof g);
  memcpy(W, P0, sizeof W);
  __enzyme_autodiff((void *)simulate, enzyme_dup, W, g, enzyme_const, NPART, enzyme_const, 20,
                    enzyme_const, 0.01);
  for (int k = 0; k < 3; k++) {
    char buf[64];
    particle t1[NPART];
    memcpy(t1, dirs[k], sizeof t1);
    memcpy(W, P0, sizeof W);
    double one = __enzyme_fwddiff((void *)simulate, enzyme_dup, W, t1, enzyme_const, NPART,
                                  enzyme_const, 20, enzyme_const, 0.01);
    snprintf(buf, sizeof buf, "lane %d vs scalar forward", k);
    fz_check(buf, jv.d[k], one, 1e-12);
    double proj = 0;
    for (int i = 0; i < NPART; i++)
      proj += g[i].x * dirs[k][i].x + g[i].y * dirs[k][i].y + g[i].vx * dirs[k][i].vx +
              g[i].vy * dirs[k][i].vy + g[i].m * dirs[k][i].m;
    snprintf(buf, sizeof buf, "lane %d vs reverse . v", k);
    fz_check(buf, jv.d[k], proj, 1e-10);
    double h = 1e-6, fp, fm;
    particle base[NPART];
    memcpy(base, P0, sizeof base);
    for (int i = 0; i < NPART; i++) {
      P0[i].x += h * dirs[k][i].x; P0[i].y += h * dirs[k][i].y; P0[i].vx += h * dirs[k][i].vx;
      P0[i].vy += h * dirs[k][i].vy; P0[i].m += h * dirs[k][i].m;
    }
    fp = ev(NULL);
    memcpy(P0, base, sizeof base);
    for (int i = 0; i < NPART; i++) {
      P0[i].x -= h * dirs[k][i].x; P0[i].y -= h * dirs[k][i].y; P0[i].vx -= h * dirs[k][i].vx;
      P0[i].vy -= h * dirs[k][i].vy; P0[i].m -= h * dirs[k][i].m;
    }
    fm = ev(NULL);
    memcpy(P0, base, sizeof base);
    snprintf(buf, sizeof buf, "lane %d vs FD", k);
    fz_check(buf, jv.d[k], (fp - fm) / (2 * h), 1e-6);
  }
  return fz_finish();
}
