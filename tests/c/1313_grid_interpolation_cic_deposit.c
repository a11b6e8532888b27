// OPT: O0 O2
// Grid codes that turn an active coordinate into an index: bilinear interpolation on a
// table (`i = (int)floor(u)`, clamped, weights from the fractional part `u - i`), with the
// table constant (enzyme_const, a lookup) and active (enzyme_dup, a fitted field), and a
// cloud-in-cell deposit of particle charges onto a periodic grid (scatter-add with
// `i % n` wrapping and `+=` into the same cells from several particles), followed by a
// quadratic energy of the grid. The index is piecewise constant: the derivative flows
// through the weights only.
// Oracles: analytic derivatives of the bilinear form, central differences (points kept
// away from cell edges), forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define NX 9
#define NY 7
typedef struct {
  double x0, y0, h;
  const double *v; // NX * NY, row-major in x
} grid;

static double bilinear(const grid *g, double x, double y) {
  double u = (x - g->x0) / g->h, w = (y - g->y0) / g->h;
  int i = (int)floor(u), j = (int)floor(w);
  if (i < 0) i = 0;
  if (i > NX - 2) i = NX - 2;
  if (j < 0) j = 0;
  if (j > NY - 2) j = NY - 2;
  double fx = u - i, fy = w - j;
  const double *r0 = g->v + j * NX, *r1 = r0 + NX;
  return (1 - fy) * ((1 - fx) * r0[i] + fx * r0[i + 1]) + fy * ((1 - fx) * r1[i] + fx * r1[i + 1]);
}

// Sum of the field along a path of points (the points active, the table constant)
double path_integral(const grid *g, const double *pts, int m) {
  double s = 0;
  for (int k = 0; k < m; k++) s += bilinear(g, pts[2 * k], pts[2 * k + 1]) * (1 + 0.1 * k);
  return s;
}

// Least-squares misfit of a field (active table) against observations at fixed points
double misfit(const double *field, const double *obs_xy, const double *obs, int m) {
  grid g = {0.0, 0.0, 0.5, field};
  double s = 0;
  for (int k = 0; k < m; k++) {
    double r = bilinear(&g, obs_xy[2 * k], obs_xy[2 * k + 1]) - obs[k];
    s += r * r;
  }
  return 0.5 * s;
}

#define NG 16
// cloud-in-cell on a periodic 1-D grid of NG cells of width 1
double cic_energy(const double *xp, const double *q, int np) {
  double rho[NG] = {0};
  for (int p = 0; p < np; p++) {
    double u = xp[p];
    int i = (int)floor(u);
    double f = u - i;
    int i0 = ((i % NG) + NG) % NG, i1 = (i0 + 1) % NG;
    rho[i0] += q[p] * (1 - f);
    rho[i1] += q[p] * f;
  }
  double e = 0;
  for (int i = 0; i < NG; i++) {
    double d = rho[(i + 1) % NG] - rho[i];
    e += rho[i] * rho[i] + 0.5 * d * d;
  }
  return e;
}

#define M 6
#define NP 9
static double V[NX * NY], PTS[2 * M], FIELD[NX * NY], OXY[2 * M], OBS[M], XP[NP], Q[NP];
static grid G = {-1.0, -0.5, 0.4, V};
static int mm = M, np = NP;
static double fpath(void *p) { return path_integral(&G, p, mm); }
static double fmis(void *p) { return misfit(p, OXY, OBS, mm); }
static double fcx(void *p) { return cic_energy(p, Q, np); }
static double fcq(void *p) { return cic_energy(XP, p, np); }

// keep a coordinate away from cell edges (fractional part in [0.15, 0.85])
static double off_edge(double u) {
  double f = u - floor(u);
  return f < 0.15 ? u + 0.2 : f > 0.85 ? u - 0.2 : u;
}

int main(void) {
  fz_seed(1313);
  for (int i = 0; i < NX * NY; i++) V[i] = sin(0.7 * i) + 0.1 * i, FIELD[i] = cos(0.3 * i);
  for (int k = 0; k < M; k++) {
    PTS[2 * k] = G.x0 + G.h * off_edge(fz_uniform(0.3, NX - 1.3));
    PTS[2 * k + 1] = G.y0 + G.h * off_edge(fz_uniform(0.3, NY - 1.3));
    OXY[2 * k] = 0.5 * fz_uniform(0.1, NX - 1.1);
    OXY[2 * k + 1] = 0.5 * fz_uniform(0.1, NY - 1.1);
    OBS[k] = fz_uniform(-1, 1);
  }
  for (int p = 0; p < NP; p++) XP[p] = off_edge(fz_uniform(-3.0, 20.0)), Q[p] = fz_uniform(0.5, 2);

  // a) constant table, active points: analytic gradient of the bilinear form
  double dp[2 * M] = {0}, g[2 * M], want[2 * M];
  __enzyme_autodiff((void *)path_integral, enzyme_const, &G, enzyme_dup, PTS, dp, enzyme_const, mm);
  for (int k = 0; k < M; k++) {
    double u = (PTS[2 * k] - G.x0) / G.h, w = (PTS[2 * k + 1] - G.y0) / G.h;
    int i = (int)floor(u), j = (int)floor(w);
    double fx = u - i, fy = w - j;
    const double *r0 = V + j * NX, *r1 = r0 + NX;
    double dfx = (1 - fy) * (r0[i + 1] - r0[i]) + fy * (r1[i + 1] - r1[i]);
    double dfy = (1 - fx) * (r1[i] - r0[i]) + fx * (r1[i + 1] - r0[i + 1]);
    want[2 * k] = (1 + 0.1 * k) * dfx / G.h;
    want[2 * k + 1] = (1 + 0.1 * k) * dfy / G.h;
  }
  fz_check_arr("path analytic", dp, want, 2 * M, 1e-12);
  fz_fd_grad(fpath, PTS, PTS, 2 * M, g);
  fz_check_arr("path fd", dp, g, 2 * M, 1e-6);

  // b) active table: the gradient is the residuals scattered with the bilinear weights
  static double df[NX * NY], wf[NX * NY], gf[NX * NY];
  __enzyme_autodiff((void *)misfit, enzyme_dup, FIELD, df, enzyme_const, OXY, enzyme_const, OBS,
                    enzyme_const, mm);
  grid gf0 = {0.0, 0.0, 0.5, FIELD};
  for (int k = 0; k < M; k++) {
    double r = bilinear(&gf0, OXY[2 * k], OXY[2 * k + 1]) - OBS[k];
    double u = OXY[2 * k] / 0.5, w = OXY[2 * k + 1] / 0.5;
    int i = (int)floor(u), j = (int)floor(w);
    double fx = u - i, fy = w - j;
    wf[j * NX + i] += r * (1 - fx) * (1 - fy);
    wf[j * NX + i + 1] += r * fx * (1 - fy);
    wf[(j + 1) * NX + i] += r * (1 - fx) * fy;
    wf[(j + 1) * NX + i + 1] += r * fx * fy;
  }
  fz_check_arr("misfit analytic", df, wf, NX * NY, 1e-12);
  fz_fd_grad(fmis, FIELD, FIELD, NX * NY, gf);
  fz_check_arr("misfit fd", df, gf, NX * NY, 1e-6);
  {
    double v[NX * NY], t[NX * NY], dot = 0;
    fz_fill(v, NX * NY, -1, 1);
    memcpy(t, v, sizeof t);
    double tan = __enzyme_fwddiff((void *)misfit, enzyme_dup, FIELD, t, enzyme_const, OXY,
                                  enzyme_const, OBS, enzyme_const, mm);
    for (int i = 0; i < NX * NY; i++) dot += df[i] * v[i];
    fz_check("misfit forward = reverse . v", tan, dot, 1e-12);
  }

  // c) cloud-in-cell deposit: positions and charges active
  double dxp[NP] = {0}, dq[NP] = {0}, gp[NP];
  __enzyme_autodiff((void *)cic_energy, enzyme_dup, XP, dxp, enzyme_dup, Q, dq, enzyme_const, np);
  fz_fd_grad(fcx, XP, XP, NP, gp);
  fz_check_arr("cic dx fd", dxp, gp, NP, 1e-6);
  fz_fd_grad(fcq, Q, Q, NP, gp);
  fz_check_arr("cic dq fd", dq, gp, NP, 1e-6);
  {
    double vx[NP], vq[NP], tx[NP], tq[NP], dot = 0;
    fz_fill(vx, NP, -1, 1);
    fz_fill(vq, NP, -1, 1);
    memcpy(tx, vx, sizeof tx);
    memcpy(tq, vq, sizeof tq);
    double tan = __enzyme_fwddiff((void *)cic_energy, enzyme_dup, XP, tx, enzyme_dup, Q, tq,
                                  enzyme_const, np);
    for (int i = 0; i < NP; i++) dot += dxp[i] * vx[i] + dq[i] * vq[i];
    fz_check("cic forward = reverse . v", tan, dot, 1e-12);
  }
  return fz_finish();
}
