// OPT: O0 O1 O2 O3
// Vector reverse mode with `enzyme_dupv` for pointers, width 4: the full
// 4 x 6 Jacobian of a residual function r(p) (small nonlinear
// least-squares model) in one call. The output seeds are the rows of a
// 4x4 identity (stride 4 doubles), the input adjoints the rows of a 4x6
// array (stride 6 doubles). Oracles: analytic Jacobian, FD, and a vector
// FORWARD call (width 6, dupv) giving the same Jacobian by columns.
#include "fz_test.h"
#include "fz_modes.h"

#define NP 6
#define NR 4

/* r_k = p0 exp(-p1 t_k) + p2 sin(p3 t_k + p4) + p5 t_k^2 - d_k */
void resid(const double *p, const double *t, const double *d, double *r, int m) {
  for (int k = 0; k < m; k++)
    r[k] = p[0] * exp(-p[1] * t[k]) + p[2] * sin(p[3] * t[k] + p[4]) + p[5] * t[k] * t[k] - d[k];
}

static double P[NP], T[NR], D[NR];
static int ROW;
static double e_row(void *c) { (void)c; double r[NR]; resid(P, T, D, r, NR); return r[ROW]; }

int main(void) {
  fz_seed(227);
  double I[NR][NR], Jr[NR][NP], J[NR][NP], r[NR];
  memset(I, 0, sizeof I);
  for (int k = 0; k < NR; k++) I[k][k] = 1.0;
  for (int t = 0; t < 3; t++) {
    fz_fill(P, NP, -1, 1);
    fz_fill(T, NR, 0, 2);
    fz_fill(D, NR, -1, 1);
    for (int k = 0; k < NR; k++) {
      double e = exp(-P[1] * T[k]), a = P[3] * T[k] + P[4];
      double row[NP] = {e, -P[0] * T[k] * e, sin(a), P[2] * cos(a) * T[k], P[2] * cos(a), T[k] * T[k]};
      memcpy(J[k], row, sizeof row);
    }
    memset(Jr, 0, sizeof Jr);
    double seeds[NR][NR];
    memcpy(seeds, I, sizeof I);
    __enzyme_autodiff_w((void *)resid, enzyme_width, 4, enzyme_dupv, (int)sizeof Jr[0], P, &Jr[0][0],
                        enzyme_const, T, enzyme_const, D, enzyme_dupv, (int)sizeof seeds[0], r,
                        &seeds[0][0], enzyme_const, NR);
    double fd[NP];
    for (ROW = 0; ROW < NR; ROW++) {
      fz_fd_grad(e_row, NULL, P, NP, fd);
      fz_mcheck2_arr("J row (reverse lane)", Jr[ROW], J[ROW], 1e-12, fd, 1e-6, NP);
      double sr[NP] = {0}, ys[NR], seed[NR];
      memcpy(seed, I[ROW], sizeof seed);
      __enzyme_autodiff((void *)resid, enzyme_dup, P, sr, enzyme_const, T, enzyme_const, D, enzyme_dup,
                        ys, seed, enzyme_const, NR);
      fz_check_arr("scalar reverse row (analytic)", sr, J[ROW], NP, 1e-12);
    }
    /* the same Jacobian by columns with vector forward mode, width 6 */
    double E[NP][NP], cols[NP][NR];
    memset(E, 0, sizeof E);
    for (int j = 0; j < NP; j++) E[j][j] = 1.0;
    __enzyme_fwddiff_void((void *)resid, enzyme_width, 6, enzyme_dupv, (int)sizeof E[0], P, &E[0][0],
                          enzyme_const, T, enzyme_const, D, enzyme_dupv, (int)sizeof cols[0], r,
                          &cols[0][0], enzyme_const, NR);
    for (int j = 0; j < NP; j++)
      for (int k = 0; k < NR; k++) fz_mcheck("forward column = reverse row entry", cols[j][k], Jr[k][j], 1e-13);
  }
  return fz_finish();
}
