// OPT: O0 O2 O3
// Forward mode with structs: an array of structs (double fields + an int
// id field, never read) behind a dup pointer whose shadow array holds per-field tangents,
// a struct written through an output pointer, and a function returning a
// struct of two doubles (the hook returns the struct of tangents).
// Oracles: analytic, finite differences; dot identity with __enzyme_autodiff.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct { double pos[2]; double vel[2]; double mass; int id; } particle;
typedef struct { double kin, pot; } energy;
typedef struct { double x, y; } pair;
#ifndef FZ_ORACLES_ONLY
extern pair __enzyme_fwddiff_pair(void *, ...);
#else
#define __enzyme_fwddiff_pair(...) ((pair){0, 0})
#endif

#define NP 5

/* kinetic energy of non-fixed particles, springs between neighbours */
void energies(const particle *p, int n, int fixed, energy *out) {
  double kin = 0.0, pot = 0.0;
  for (int i = 0; i < n; i++) {
    if (i != fixed) kin += 0.5 * p[i].mass * (p[i].vel[0] * p[i].vel[0] + p[i].vel[1] * p[i].vel[1]);
    if (i > 0) {
      double dx = p[i].pos[0] - p[i - 1].pos[0], dy = p[i].pos[1] - p[i - 1].pos[1];
      pot += 0.5 * (dx * dx + dy * dy);
    }
  }
  out->kin = kin;
  out->pot = pot;
}
double total(const particle *p, int n) {
  energy e;
  energies(p, n, 2, &e);
  return e.kin + e.pot;
}

pair polar(double r, double th) { return (pair){r * cos(th), r * sin(th)}; }

static particle P[NP];
static double e_total(void *c) { (void)c; return total(P, NP); }

int main(void) {
  fz_seed(208);
  for (int t = 0; t < 3; t++) {
    particle dp[NP], g[NP];
    memset(dp, 0, sizeof dp);
    for (int i = 0; i < NP; i++) {
      fz_fill(P[i].pos, 2, -1, 1);
      fz_fill(P[i].vel, 2, -1, 1);
      P[i].mass = fz_uniform(0.5, 2);
      P[i].id = i;
      fz_fill(dp[i].pos, 2, -1, 1);
      fz_fill(dp[i].vel, 2, -1, 1);
      dp[i].mass = fz_uniform(-1, 1);
    }
    /* analytic gradient of total, laid out like the struct */
    memset(g, 0, sizeof g);
    for (int i = 0; i < NP; i++) {
      if (i != 2) { /* particle 2 is fixed */
        for (int k = 0; k < 2; k++) g[i].vel[k] = P[i].mass * P[i].vel[k];
        g[i].mass = 0.5 * (P[i].vel[0] * P[i].vel[0] + P[i].vel[1] * P[i].vel[1]);
      }
      for (int k = 0; k < 2; k++) {
        if (i > 0) g[i].pos[k] += P[i].pos[k] - P[i - 1].pos[k];
        if (i < NP - 1) g[i].pos[k] -= P[i + 1].pos[k] - P[i].pos[k];
      }
    }
    double want = 0.0;
    for (int i = 0; i < NP; i++) {
      want += g[i].pos[0] * dp[i].pos[0] + g[i].pos[1] * dp[i].pos[1] + g[i].vel[0] * dp[i].vel[0] +
              g[i].vel[1] * dp[i].vel[1] + g[i].mass * dp[i].mass;
    }
    /* FD along the tangent: perturb all double fields of all particles */
    double fd = 0.0, h = 1e-4, f4[4];
    const double off[4] = {-2, -1, 1, 2};
    particle save[NP];
    memcpy(save, P, sizeof P);
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < NP; i++) {
        for (int c = 0; c < 2; c++) {
          P[i].pos[c] = save[i].pos[c] + off[k] * h * dp[i].pos[c];
          P[i].vel[c] = save[i].vel[c] + off[k] * h * dp[i].vel[c];
        }
        P[i].mass = save[i].mass + off[k] * h * dp[i].mass;
      }
      f4[k] = e_total(NULL);
    }
    memcpy(P, save, sizeof P);
    fd = (f4[0] - 8 * f4[1] + 8 * f4[2] - f4[3]) / (12 * h);
    double jv = __enzyme_fwddiff((void *)total, enzyme_dup, P, dp, enzyme_const, NP);
    fz_mcheck2("total along struct tangent", jv, want, 1e-12, fd, 1e-6);

    /* void function writing a struct: both fields' tangents */
    energy e, de = {99.0, 99.0};
    __enzyme_fwddiff_void((void *)energies, enzyme_dup, P, dp, enzyme_const, NP, 2,
                          enzyme_dup, &e, &de);
    double wk = 0.0;
    for (int i = 0; i < NP; i++)
      wk += g[i].vel[0] * dp[i].vel[0] + g[i].vel[1] * dp[i].vel[1] + g[i].mass * dp[i].mass;
    fz_mcheck("energies d kin", de.kin, wk, 1e-12);
    fz_mcheck("energies d pot", de.pot, want - wk, 1e-12);

    /* reverse on the same function: struct-shaped gradient */
    particle gr[NP];
    memset(gr, 0, sizeof gr);
    __enzyme_autodiff((void *)total, enzyme_dup, P, gr, enzyme_const, NP);
    double v[5 * NP], jtw[5 * NP], w = 1.0;
    for (int i = 0; i < NP; i++) {
      double vi[5] = {dp[i].pos[0], dp[i].pos[1], dp[i].vel[0], dp[i].vel[1], dp[i].mass};
      double gi[5] = {gr[i].pos[0], gr[i].pos[1], gr[i].vel[0], gr[i].vel[1], gr[i].mass};
      double ai[5] = {g[i].pos[0], g[i].pos[1], g[i].vel[0], g[i].vel[1], g[i].mass};
      fz_check_arr("rev struct gradient", gi, ai, 5, 1e-12);
      memcpy(v + 5 * i, vi, sizeof vi);
      memcpy(jtw + 5 * i, gi, sizeof gi);
    }
    fz_mcheck_dot("total", v, jtw, 5 * NP, &jv, &w, 1, 1e-10);

    /* struct return */
    double r = fz_uniform(0.5, 2), th = fz_uniform(-3, 3), dr = fz_uniform(-1, 1), dth = fz_uniform(-1, 1);
    pair d = __enzyme_fwddiff_pair((void *)polar, r, dr, th, dth);
    fz_mcheck("polar dx", d.x, dr * cos(th) - r * sin(th) * dth, 1e-12);
    fz_mcheck("polar dy", d.y, dr * sin(th) + r * cos(th) * dth, 1e-12);
  }
  return fz_finish();
}
